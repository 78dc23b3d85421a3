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
import { type TransportState, transportSpeech } from "./transport_speech";

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
