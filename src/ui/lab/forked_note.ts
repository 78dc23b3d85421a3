/**
 * The line a fork's run card shows (./RunCard.tsx).
 */
/** A fork's own share of its steps, for Remove's confirmation: " (1 since it was forked at step 4)". */
export function forkedNote(forkOf: { step: number } | undefined, step: number): string {
  if (!forkOf || forkOf.step <= 0 || forkOf.step > step) return "";
  const own = step - forkOf.step;
  return ` (${own} since it was forked at step ${forkOf.step})`;
}
