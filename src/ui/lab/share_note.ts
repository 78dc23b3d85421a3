/**
 * What Share says a link carries, said where it is copied: students expect to be sharing their results. A link
 * holds the current settings only, so a run whose settings changed mid-run (its markers, src/lab/export/
 * changes.ts) would train the final values from step 1 for whoever opens it: the note names those changes.
 */
import { runsChangesText } from "../../lab/export/changes";
import type { ExperimentSpec, Marker } from "../../lab/protocol";

/** The note every Share shows. */
export const SHARE_NOTE =
  "The link rebuilds the settings (task, model, seed, runs, knobs), not the training: whoever opens it trains from step 0 (only in this browser does it reopen the training saved here, so try it in a private window to see what they get). To share results, export a run (its download menu) for them to Import.";

/**
 * The Share note for runs `runs` (the runs the link carries, with their markers): {@link SHARE_NOTE}, and when
 * any changed settings mid-run, "This link opens the current settings; the mid-run changes (PPO β = 0.2: β 0.2
 * → 0.5 at step 2) are not replayed." before it.
 */
export function shareNote(runs: readonly { label: string; markers?: readonly Marker[] }[]): string {
  const changes = runsChangesText(runs);
  return changes
    ? `This link opens the current settings; the mid-run changes (${changes}) are not replayed. ${SHARE_NOTE}`
    : SHARE_NOTE;
}

/** The Share note of the lab store's state: the runs a link carries (not those imported for comparison). */
export function shareNoteOf(s: {
  spec: ExperimentSpec;
  runs: Record<string, { markers: readonly Marker[]; comparison?: boolean }>;
}): string {
  const own = s.spec.runs.filter((r) => !s.runs[r.id]?.comparison);
  return shareNote(own.map((r) => ({ label: r.label, markers: s.runs[r.id]?.markers })));
}
