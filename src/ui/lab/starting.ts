/**
 * The lab's start as the worker reports it (src/lab/start_progress.ts), for the loading line: the stage, and
 * when anything last moved (a new stage or more bytes), so that the line can say when nothing has arrived for a
 * while. A zustand store of its own: it changes many times a second during a download, and only the loading
 * line reads it.
 */
import { create } from "zustand";
import type { StartStage } from "../../lab/start_progress";
import { bytes } from "../format";
import { reloadForEdit } from "../hot_reload";

/** With no new byte for this long (ms), a download is said to be stalled, with what to do. */
export const STALL_MS = 20_000;
/**
 * Starting the reward model's runtime longer than this (ms) is said to be slow: compiling its 14 MB of
 * WebAssembly (downloaded before, with a byte count: a "download" stage) on a busy machine.
 */
export const SLOW_REWARD_MS = 60_000;
/**
 * The same for the scripts the page downloads without a byte count it can see (the training worker's, then the
 * task's prompts: 1.2 MB for sentiment): said to be slow after this long (ms).
 */
export const SLOW_SCRIPT_MS = 30_000;

interface Starting {
  stage: StartStage | null;
  /** performance.now() of the last report. */
  at: number;
  report(s: StartStage | null): void;
}

export const useStarting = create<Starting>()((set) => ({
  stage: null,
  at: 0,
  report: (stage) => set({ stage, at: performance.now() }),
}));

/**
 * The loading line for a stage: "Downloading models/sentiment/sft.safetensors" and, apart, how far it got
 * (": 1.2 MiB of 3.1 MiB", changing several times a second: the page keeps it out of what screen readers announce).
 */
export function stageText(s: StartStage | null): { text: string; progress: string } {
  if (s?.stage === "download") {
    const progress =
      s.total !== null
        ? `: ${bytes(s.loaded)} of ${bytes(s.total)}`
        : s.loaded > 0
          ? `: ${bytes(s.loaded)}`
          : "";
    return { text: `Downloading ${s.path}`, progress };
  }
  return { text: stageLine(s), progress: "" };
}

function stageLine(s: Exclude<StartStage, { stage: "download" }> | null): string {
  switch (s?.stage) {
    case undefined:
      return "Starting the training worker";
    case "gpu":
      return "Getting a GPU device for the training worker";
    case "task":
      return "Loading the task's prompts";
    case "kernels":
      return "Timing the matrix-multiply kernels on this GPU";
    case "runs":
      return "Building the runs on the GPU (compiling their kernels)";
    case "reward":
      return "Starting the reward model (compiling onnxruntime's WebAssembly)";
  }
}

/**
 * What the line should add: "stalled" (a download with nothing new for STALL_MS), "slow" (the reward model's
 * runtime still starting after SLOW_REWARD_MS; the worker's script or the task's prompts still loading after
 * SLOW_SCRIPT_MS), or null. `at`: when the stage began (for null, when the page began to start the worker).
 */
export function stalled(s: StartStage | null, at: number, now: number): "stalled" | "slow" | null {
  if (s?.stage === "download" && now - at >= STALL_MS) return "stalled";
  if (s?.stage === "reward" && now - at >= SLOW_REWARD_MS) return "slow";
  if ((s === null || s.stage === "task") && now - at >= SLOW_SCRIPT_MS) return "slow";
  return null;
}

// Editing this module under `npx vite` reloads the page, saving first (../hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
