/**
 * Which metric point a run's checkpoint was taken at: the step its weights are at is in the file (its metadata's
 * "steps", LabRun.safetensors), and while the lab plays the worker may be a step or two past the page's last
 * point (its updates are throttled). The saved checkpoint takes that step's counters, so a reload resumes at
 * the step the weights hold.
 */
import { readSafetensorsHeader } from "../model/safetensors";
import type { MetricPoint } from "./protocol";

/**
 * The point of `history` at the step checkpoint `bytes` holds; the last point when the file names none (not a
 * safetensors file: a test's stand-in); undefined when the page has not heard of that step yet (save the next
 * checkpoint instead) or the history is empty.
 */
export function checkpointPoint(bytes: Uint8Array, history: readonly MetricPoint[]): MetricPoint | undefined {
  const step = checkpointStep(bytes);
  return step === null || step === 0 ? history.at(-1) : history.findLast((p) => p.step === step);
}

/** The step checkpoint `bytes` holds the weights of (its metadata's "steps", ≥ 0), or null when it names none. */
export function checkpointStep(bytes: Uint8Array): number | null {
  try {
    const steps = Number(readSafetensorsHeader(bytes).metadata.steps);
    return Number.isInteger(steps) && steps >= 0 ? steps : null;
  } catch {
    return null; // no header to read
  }
}
