/**
 * The lab notice's sentences that ask the user to train (src/ui/client.ts): they go once Play or Step trains,
 * while the notice's other sentences stay. Plain strings: no DOM, no worker.
 */

/**
 * Whether a stop step is set (> 0) and every run the worker trains has reached it (runs in error and curves
 * imported for comparison do not count; false with none left).
 */
export function allAtStop(
  runs: readonly { status: string; step: number; comparison?: boolean }[],
  stopAt: number,
): boolean {
  const trained = runs.filter((r) => r.status !== "error" && !r.comparison);
  return stopAt > 0 && trained.length > 0 && trained.every((r) => r.step >= stopAt);
}

/** The notice when Play is refused because every run has reached `stopAt`. */
export const stopNotice = (stopAt: number | string) =>
  `Every run has reached the stop step (${stopAt}): raise “Stop at” or clear it to train on, or press Reset to start again.`;

/** Play refused at the stop step: stopNotice's sentence with any step. */
const STOP_SENTENCE = new RegExp(
  stopNotice("STEP")
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace("STEP", "\\d+"),
);

/** The notice's sentence after the Pipeline's hand-off (src/ui/lab/pipeline_actions.ts). */
export const HANDED_OFF_LINE =
  "Every run now starts from the Pipeline's SFT model and optimises its reward model (reward: pipeline; the gold score is charted dashed). Press Play to train.";

/**
 * The notice's sentence when a Pipeline stage starts while the runs play: the stage pauses them (alone on the
 * device, it trains at full speed).
 */
export const STAGE_PAUSED_LINE =
  "The runs were paused for the Pipeline's stage (alone on the GPU, it trains faster): press Play to train them, alongside it or after it.";

/** Sentences that ask for training. */
const UNTIL_TRAINING = [STOP_SENTENCE, HANDED_OFF_LINE, STAGE_PAUSED_LINE] as const;

/** `notice` without the sentences that ask for training (null when nothing else is left). */
export function withoutTrainingAsks(notice: string | null): string | null {
  return without(notice, UNTIL_TRAINING);
}

/** `notice` without its "reached the stop step" sentence (the stop step was raised or cleared; null: nothing left). */
export function withoutStopSentence(notice: string | null): string | null {
  return without(notice, [STOP_SENTENCE]);
}

/** `notice` with the stop-step sentence for `stopAt` at its end, in place of any earlier one (Play refused). */
export function withStopSentence(notice: string | null, stopAt: number): string {
  return [withoutStopSentence(notice), stopNotice(stopAt)].filter(Boolean).join(" ");
}

/** `notice` without `sentences` (each once), spaces mended; null when nothing is left. */
export function without(notice: string | null, sentences: readonly (string | RegExp)[]): string | null {
  if (!notice) return notice;
  let rest = notice;
  for (const sentence of sentences) rest = rest.replace(sentence, "");
  if (rest === notice) return notice;
  return rest.replace(/ {2,}/g, " ").trim() || null;
}

/** `notice` with `line` at its end, once (an earlier copy of it taken out, spaces mended). */
export function withLine(notice: string | null, line: string): string {
  const rest = notice?.replace(line, "").replace(/ {2,}/g, " ").trim();
  return rest ? `${rest} ${line}` : line;
}

/** `notice` with STAGE_PAUSED_LINE at its end (once). */
export function withStagePaused(notice: string | null): string {
  return withLine(notice, STAGE_PAUSED_LINE);
}

/**
 * The notice after the stop step is set to `steps` (`reached`: every run is there already). Set at or below
 * where every run is while they play: they stop now, so it says why at once. Raised or cleared: a "reached the
 * stop step" sentence from before no longer holds (the rest stays); lowered, still reached: the sentence names
 * the new stop step.
 */
export function afterStopAt(
  notice: string | null,
  steps: number,
  playing: boolean,
  reached: boolean,
): string | null {
  if (playing && reached) return withStopSentence(withoutTrainingAsks(notice), steps);
  const rest = withoutStopSentence(notice);
  if (rest === notice) return notice;
  return reached ? withStopSentence(rest, steps) : rest;
}
