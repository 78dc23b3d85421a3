/**
 * A run card's line on a slow step in flight: the stage ("sampling 16/48 tokens", "scoring", "update 2/4"), a bar
 * where there is a count, and how long the step has run, ticking every second so a long stage (a software GPU
 * scores for a minute) still shows the page is alive.
 */
import { useEffect, useState } from "react";
import type { ShownProgress } from "../lab_store";
import { elapsedText, progressFraction, progressText, STAGE_HINT } from "./step_progress";

export function StepProgressLine({
  runId,
  step,
  progress,
}: {
  runId: string;
  /** The run's step count: the step in flight is step + 1. */
  step: number;
  progress: ShownProgress;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const fraction = progressFraction(progress);
  return (
    <p className="run-progress" title={STAGE_HINT[progress.stage]} data-testid={`progress-${runId}`}>
      <span>{progressText(progress)}</span>
      {fraction !== null && (
        <progress max={1} value={fraction} aria-label={`Step ${step + 1}: ${progressText(progress)}`} />
      )}
      <span className="run-progress-time" data-testid={`step-time-${runId}`}>
        {elapsedText(Math.max(now, progress.since) - progress.since)}
      </span>
    </p>
  );
}
