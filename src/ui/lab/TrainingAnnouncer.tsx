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

/** The transport as it is spoken of: playing, the furthest run's step, every run's steps summed, at the stop step. */
export interface TransportState {
  playing: boolean;
  step: number;
  total: number;
  atStop: boolean;
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
  // Paused: steps that land (Step, or the last steps of a pause) speak; a run added or removed does not.
  return now.total > before.total ? transportAnnouncement(false, now.step, now.atStop) : null;
}

const totalSteps = (s: { runs: Record<string, { step: number; comparison?: boolean }> }): number =>
  Object.values(s.runs).reduce((a, r) => a + (r.comparison ? 0 : r.step), 0);

export function TrainingAnnouncer() {
  const playing = useLab((s) => s.playing);
  const step = useLab(trainedSteps);
  const total = useLab(totalSteps);
  const stopAt = useLab((s) => s.spec.steps ?? 0);
  const atStop = useLab((s) => allAtStop(Object.values(s.runs), s.spec.steps ?? 0));
  const [text, setText] = useState("");
  const was = useRef<TransportState>({ playing, step, total, atStop });
  const spoke = useRef(0);
  useEffect(() => {
    const now = { playing, step, total, atStop };
    const said = transportSpeech(was.current, now, performance.now() - spoke.current, stopAt);
    was.current = now;
    if (said === null) return;
    spoke.current = performance.now();
    setText(said);
  }, [playing, step, total, atStop, stopAt]);
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
