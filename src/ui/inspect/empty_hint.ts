/**
 * What the Inspect panel says while it has nothing to show (./InspectPanel.tsx).
 */

/** Why there is nothing to inspect while paused, from the runs' states. */
export function emptyHint(
  runs: Record<string, { step: number; status: string; comparison?: boolean }> | null,
): string {
  // A run imported for comparison has curves but no views.
  const all = Object.values(runs ?? {}).filter((r) => !r.comparison);
  // Paused mid-step: the step lands, and its view with it.
  if (all.some((r) => r.status === "finishing" || r.status === "running"))
    return "A step is on the device (on a software GPU that can take minutes); a run's view appears here when its step lands.";
  if (all.some((r) => r.step > 0))
    return "No view of the latest step here (views are not kept across a reload, an import or a recovery from a lost GPU): take a step (Step) to inspect the next one.";
  return "Take a step (Step) to inspect it here.";
}
