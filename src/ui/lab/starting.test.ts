import { describe, expect, it } from "vitest";
import { SLOW_REWARD_MS, SLOW_SCRIPT_MS, STALL_MS, stageText, stalled } from "./starting";

const line = (s: Parameters<typeof stageText>[0]) => {
  const { text, progress } = stageText(s);
  return `${text}${progress}…`;
};

describe("the loading line's text", () => {
  it("names each stage, a download with its bytes", () => {
    expect(line(null)).toBe("Starting the training worker…");
    expect(line({ stage: "gpu" })).toBe("Getting a GPU device for the training worker…");
    const sft = { stage: "download" as const, path: "models/sentiment/sft.safetensors" };
    // The bytes apart, kept from screen readers (they change several times a second).
    expect(stageText({ ...sft, loaded: 1_258_291, total: 3_287_616 })).toEqual({
      text: "Downloading models/sentiment/sft.safetensors",
      progress: ": 1.2 MiB of 3.1 MiB",
    });
    expect(line({ ...sft, loaded: 0, total: 3_287_616 })).toBe(
      "Downloading models/sentiment/sft.safetensors: 0 B of 3.1 MiB…",
    );
    expect(line({ ...sft, loaded: 2048, total: null })).toBe(
      "Downloading models/sentiment/sft.safetensors: 2 KiB…",
    );
    expect(line({ ...sft, loaded: 0, total: null })).toBe("Downloading models/sentiment/sft.safetensors…");
    expect(line({ stage: "task" })).toBe("Loading the task's prompts…");
    expect(line({ stage: "kernels" })).toBe("Timing the matrix-multiply kernels on this GPU…");
    expect(line({ stage: "runs" })).toBe("Building the runs on the GPU (compiling their kernels)…");
  });

  it("says a download stalled once nothing arrived for STALL_MS; the reward model's runtime slow after SLOW_REWARD_MS, scripts after SLOW_SCRIPT_MS", () => {
    const d = { stage: "download" as const, path: "x", loaded: 10, total: 20 };
    expect(stalled(d, 1000, 1000 + STALL_MS - 1)).toBeNull();
    expect(stalled(d, 1000, 1000 + STALL_MS)).toBe("stalled");
    // Timing kernels or building runs on a software adapter takes long by itself: not a network stall.
    expect(stalled({ stage: "runs" }, 0, 10 * STALL_MS)).toBeNull();
    // Compiling onnxruntime's 14 MB of WebAssembly (downloaded with a byte count before): "slow" after a minute.
    expect(stalled({ stage: "reward" }, 0, SLOW_REWARD_MS - 1)).toBeNull();
    expect(stalled({ stage: "reward" }, 0, SLOW_REWARD_MS)).toBe("slow");
    // The worker's script and the task's prompts (a 1.2 MB chunk) come without a byte count either.
    for (const s of [null, { stage: "task" as const }]) {
      expect(stalled(s, 500, 500 + SLOW_SCRIPT_MS - 1)).toBeNull();
      expect(stalled(s, 500, 500 + SLOW_SCRIPT_MS)).toBe("slow");
    }
    expect(stalled({ stage: "kernels" }, 0, 10 * SLOW_REWARD_MS)).toBeNull();
    expect(line({ stage: "reward" })).toBe(
      "Starting the reward model (compiling onnxruntime's WebAssembly)…",
    );
  });
});
