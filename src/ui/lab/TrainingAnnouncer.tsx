/**
 * Says to screen readers what the transport does: training started, paused at step N, or stopped at the
 * stop step (the lab pauses itself there, with no other sign but the Play button's look). A polite live region,
 * visually hidden, that speaks when playing starts or stops; while paused, when a step lands (Step); while
 * playing, the step reached at most every {@link PROGRESS_EVERY_MS} (each step would be chatty; none leaves a
 * 300-step lesson silent for minutes). Runs added or removed, or Stop at changed, say nothing here.
 * Also the page's own announcements (./announce.ts): a run removed, a setting changed, a lesson opened.
 */
import { useEffect, useRef, useState } from "react";
import { allAtStop } from "../client_notices";
import { trainedSteps, useLab } from "../lab_store";
import { useAnnouncement } from "./announce";

/** The least time between two "Step N." while training (ms). */
export const PROGRESS_EVERY_MS = 30_000;

/** The sentence for a change of `playing` (pure; tested). */
export function transportAnnouncement(playing: boolean, step: number, stoppedAtStop: boolean): string {
  if (playing) return "Training.";
  return stoppedAtStop ? `Stopped at step ${step}: every run reached “Stop at”.` : `Paused at step ${step}.`;
}

/** The transport as it is spoken of: playing, the furthest run's step, each run's step by id, at the stop step. */
export interface TransportState {
  playing: boolean;
  step: number;
  steps: Readonly<Record<string, number>>;
  atStop: boolean;
}

/** Whether a run there before and after has more steps after (a run added, duplicated or imported is not). */
function landed(before: TransportState, now: TransportState): boolean {
  return Object.entries(now.steps).some(([id, n]) => before.steps[id] !== undefined && n > before.steps[id]);
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

/** Each run's step by id (runs imported for comparison do not train: left out). */
const runSteps = (s: { runs: Record<string, { step: number; comparison?: boolean }> }): string =>
  JSON.stringify(
    Object.fromEntries(Object.entries(s.runs).flatMap(([id, r]) => (r.comparison ? [] : [[id, r.step]]))),
  );

export function TrainingAnnouncer() {
  const playing = useLab((s) => s.playing);
  const step = useLab(trainedSteps);
  // As text: a stable value for the store's selector (a new object each time would redraw on every update).
  const stepsText = useLab(runSteps);
  const stopAt = useLab((s) => s.spec.steps ?? 0);
  const atStop = useLab((s) => allAtStop(Object.values(s.runs), s.spec.steps ?? 0));
  const [text, setText] = useState("");
  const was = useRef<TransportState>({ playing, step, steps: JSON.parse(stepsText), atStop });
  const spoke = useRef(0);
  useEffect(() => {
    const now = { playing, step, steps: JSON.parse(stepsText) as Record<string, number>, atStop };
    const said = transportSpeech(was.current, now, performance.now() - spoke.current, stopAt);
    was.current = now;
    if (said === null) return;
    spoke.current = performance.now();
    setText(said);
  }, [playing, step, stepsText, atStop, stopAt]);
  return (
    <span className="visually-hidden" role="status" data-testid="transport-status">
      {text}
    </span>
  );
}

/** The page's announcements (./announce.ts), in a polite live region of their own. */
export function PageAnnouncer() {
  const said = useAnnouncement();
  return (
    <span className="visually-hidden" role="status" data-testid="page-status">
      {said}
    </span>
  );
}
