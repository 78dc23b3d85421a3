import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { describeConfig } from "../../src/lab/pipeline/model_config";
import { PRESETS } from "../../src/model/config";
import { experimentTitle, keptRunsText, modelName, timeAgo } from "../../src/ui/lab/experiment_names";

describe("names of kept experiments", () => {
  it("titles an experiment, and a lesson by its title", () => {
    expect(experimentTitle({ ...defaultExperiment(), seed: 3 })).toBe(
      "Sentiment · shipped SFT model · seed 3",
    );
    expect(experimentTitle({ ...defaultExperiment(), task: "arithmetic", preset: "kl-estimators" })).toBe(
      "KL estimators k1, k2, k3: Arithmetic · shipped SFT model · seed 0",
    );
    // After a Pipeline hand-off the spec still says nano: the title names the model the runs started from.
    const handed = "pipeline: nano (2 layers, C = 32, context 48) after 40 SFT steps (this page)";
    expect(experimentTitle({ ...defaultExperiment(), task: "arithmetic", model: "nano" }, handed)).toBe(
      "Arithmetic · Pipeline's SFT model (nano, 40 steps) · seed 0",
    );
  });

  it("lists the runs that trained, and the Pipeline", () => {
    const runs = [
      { label: "PPO", algo: "ppo" as const, step: 40 },
      { label: "DPO", algo: "dpo" as const, step: 0 },
      { label: "GRPO (fork @ 3)", algo: "grpo" as const, step: 12 },
    ];
    expect(keptRunsText({ runs, pipeline: false })).toBe("PPO at step 40, GRPO (fork @ 3) at step 12");
    expect(keptRunsText({ runs: [runs[1]], pipeline: true })).toBe("no training; Pipeline models");
    const imported = { label: "PPO (imported)", algo: "ppo" as const, step: 0, comparison: true as const };
    expect(keptRunsText({ runs: [runs[1], imported], pipeline: false })).toBe(
      "1 run imported for comparison",
    );
    expect(keptRunsText({ runs: [runs[0], imported, imported], pipeline: false })).toBe(
      "PPO at step 40; 2 runs imported for comparison",
    );
    // Kept without its checkpoint (storage full): reopened it starts over, and the entry says so.
    const curves = { ...runs[0], curvesOnly: true as const };
    expect(keptRunsText({ runs: [curves], pipeline: false })).toBe(
      "PPO at step 40 (curves only: no checkpoint was saved)",
    );
  });

  it("says how long ago", () => {
    const now = 1_000_000_000;
    expect(timeAgo(now - 20_000, now)).toBe("just now");
    expect(timeAgo(now - 5 * 60_000, now)).toBe("5 minutes ago");
    expect(timeAgo(now - 3 * 3_600_000, now)).toBe("3 hours ago");
    expect(timeAgo(now - 86_400_000, now)).toBe("yesterday");
    expect(timeAgo(now - 9 * 86_400_000, now)).toBe("9 days ago");
  });
});

describe("the start model's name in the top bar", () => {
  it("names the shipped model, a random init and the Pipeline's SFT model briefly", () => {
    expect(modelName("models/arithmetic/sft.safetensors")).toBe("shipped SFT model");
    expect(modelName("nano (random init, seed 3)")).toBe("nano (random init)");
    const piped = `pipeline: ${describeConfig("nano", { ...PRESETS.nano, contextLength: 48 })} after 40 SFT steps (this page)`;
    expect(modelName(piped)).toBe("Pipeline's SFT model (nano, 40 steps)");
  });
});
