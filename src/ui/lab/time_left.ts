/**
 * The time a Pipeline stage has left, as text (./PipelineControls.tsx shows it).
 */
import { durationText } from "./step_progress";

/**
 * The time a stage has left, from its pace so far: `done` of `steps` steps in `elapsedMs`; null before its
 * second step (the first one also builds the kernels), e.g. "about 2 min 05 s left", "about 3 h 20 min left".
 */
export function timeLeft(done: number, steps: number, elapsedMs: number): string | null {
  if (done < 2 || done >= steps || !(elapsedMs > 0)) return null;
  return `about ${durationText((elapsedMs / done) * (steps - done))} left`;
}
