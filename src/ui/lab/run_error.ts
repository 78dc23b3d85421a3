/**
 * What a run card offers for its error (RunCard.tsx): going back to its last checkpoint, with advice that fits
 * the error's kind, or a reload when the GPU device is gone for good; and why its checkpoint and ONNX exports
 * are unavailable when it has no weights.
 */
import type { RunState } from "../lab_store";

/** The "Back to its last checkpoint" button's tooltip for an error of `kind`. */
export function rewindTitle(kind: RunState["errorKind"]): string {
  const back = "Drop its steps since its last checkpoint (taken every few steps) and train on from there";
  if (kind === "gpu-memory")
    return `${back}: first give it fewer prompts per step, fewer samples per prompt, shorter completions or a smaller model, or its step runs out of GPU memory again.`;
  if (kind === "gpu-internal")
    return `${back}. The error is a bug in the lab, not in its settings: it may fail the same way; reloading the page may help.`;
  return `${back}: change a setting first, such as a lower learning rate, or it may fail the same way.`;
}

/** The error's way out is a reload (the GPU device is gone for good): no "Back to its last checkpoint". */
export const reloadOnly = (run: Pick<RunState, "errorKind">): boolean => run.errorKind === "device-gone";

/** Why the run's checkpoint and ONNX exports are unavailable, or null when they are available. */
export function noWeightsReason(run: Pick<RunState, "comparison" | "noWeights" | "status">): string | null {
  if (run.comparison) return "A comparison run has its curves only, no weights";
  if (run.noWeights && run.status === "error")
    return "This run has no weights now (its error says why): only its curves and settings can be exported";
  return null;
}
