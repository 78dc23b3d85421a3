/**
 * Says to screen readers what the transport does: training started, paused at step N, or stopped at the
 * stop step (the lab pauses itself there, with no other sign but the Play button's look). A polite live region,
 * visually hidden, that speaks when playing starts or stops and, while paused, when a step lands (Step); steps
 * while playing stay quiet (that would be chatty).
 */
import { useEffect, useRef, useState } from "react";
import { allAtStop } from "../client_notices";
import { trainedSteps, useLab } from "../lab_store";

/** The sentence for a change of `playing` (pure; tested). */
export function transportAnnouncement(playing: boolean, step: number, stoppedAtStop: boolean): string {
  if (playing) return "Training.";
  return stoppedAtStop ? `Stopped at step ${step}: every run reached “Stop at”.` : `Paused at step ${step}.`;
}

export function TrainingAnnouncer() {
  const playing = useLab((s) => s.playing);
  const step = useLab(trainedSteps);
  const atStop = useLab((s) => allAtStop(Object.values(s.runs), s.spec.steps ?? 0));
  const [text, setText] = useState("");
  const was = useRef({ playing, step, atStop });
  useEffect(() => {
    // A change of playing speaks; so does a step landing while paused (Step pressed, or the last runs' steps
    // of a pause, which may bring them all to the stop step). Steps while playing stay quiet, and so does the
    // page as it opens.
    const before = was.current;
    was.current = { playing, step, atStop };
    if (before.playing === playing && (playing || (before.step === step && before.atStop === atStop))) return;
    setText(transportAnnouncement(playing, step, atStop));
  }, [playing, step, atStop]);
  return (
    <span className="visually-hidden" role="status" data-testid="transport-status">
      {text}
    </span>
  );
}
