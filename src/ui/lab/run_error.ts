/**
 * What a run card offers for its error (RunCard.tsx): going back to its last checkpoint, with advice that fits
 * the error's kind, a reload when the GPU device is gone for good, or a change of its settings when it could
 * not start (it has no checkpoint); and why its checkpoint and ONNX exports are unavailable when it has no weights.
 */
import { cspBlocked } from "../../lab/csp_blocked";
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

/**
 * The run could not start (its settings were refused, e.g. a step over the memory budget): it has no checkpoint to
 * go back to, and a change of its settings starts it again with them (Scheduler.setConfig rebuilds it); unless the
 * site's Content-Security-Policy refused it, which no setting but another reward gets round. Null for another
 * error; else what the card says instead of "Back to its last checkpoint", and its title.
 */
export function restartHint(
  run: Pick<RunState, "errorKind" | "error">,
): { text: string; title: string } | null {
  if (run.errorKind !== "could-not-start") return null;
  // The site's Content-Security-Policy refused it (src/lab/csp_blocked.ts): no setting of the run is the cause.
  if (cspBlocked(run.error))
    return {
      text: "Not its settings: this site blocks the WebAssembly that ONNX reward models run on. The gold reward trains here.",
      title:
        "Whoever hosts the lab must allow 'wasm-unsafe-eval' in the server's Content-Security-Policy (README: Hosting the lab). Until then, choose the gold reward, or remove the run.",
    };
  return {
    text: "Change its settings (e.g. fewer prompts per step): the run starts again with them.",
    title:
      "It never started, so it has no checkpoint to go back to. Change the setting its error names (for a step too large: fewer prompts per step, fewer samples per prompt, shorter completions), or remove it.",
  };
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
