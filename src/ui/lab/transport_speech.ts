/**
 * What the screen reader hears when training starts, pauses or stops (./TrainingAnnouncer.tsx says it).
 */

/** The least time between two "Step N." while training (ms). */
export const PROGRESS_EVERY_MS = 30_000;

/** The transport as it is spoken of: playing, the furthest run's step, each run's step by id, at the stop step. */
export interface TransportState {
  playing: boolean;
  step: number;
  steps: Readonly<Record<string, number>>;
  atStop: boolean;
}

/** Whether a run there before and after has more steps after (a run added, duplicated or imported is not). */
export function landed(before: TransportState, now: TransportState): boolean {
  return Object.entries(now.steps).some(([id, n]) => before.steps[id] !== undefined && n > before.steps[id]);
}
/** The sentence for a change of `playing` (pure; tested). */
export function transportAnnouncement(playing: boolean, step: number, stoppedAtStop: boolean): string {
  if (playing) return "Training.";
  return stoppedAtStop ? `Stopped at step ${step}: every run reached “Stop at”.` : `Paused at step ${step}.`;
}

/**
 * What to say when the transport goes from `before` to `now` (null: nothing), `sinceSpokeMs` after it last
 * spoke, with `stopAt` the stop step (0: none). Pure (tested).
 */
export function transportSpeech(
  before: TransportState,
  now: TransportState,
  sinceSpokeMs: number,
  stopAt: number,
): string | null {
  if (before.playing !== now.playing) return transportAnnouncement(now.playing, now.step, now.atStop);
  if (now.playing)
    return now.step !== before.step && sinceSpokeMs >= PROGRESS_EVERY_MS
      ? `Step ${now.step}${stopAt > 0 ? ` of ${stopAt}` : ""}.`
      : null;
  // Paused: steps that land (Step, or the last steps of a pause) speak; a run added (a duplicate or an import
  // at its source's step) or removed does not.
  return landed(before, now) ? transportAnnouncement(false, now.step, now.atStop) : null;
}
