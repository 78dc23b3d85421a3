import { beforeEach, describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { RUN_ID } from "../../lab/settings";
import { colourMap, resetColours } from "./palette";
import { forkSpec, freeId, newRunSpec, sharedConfig } from "./run_specs";

const runs: RunSpec[] = [
  { id: "ppo-1", algo: "ppo", label: "PPO", config: { beta: 0.1 } },
  { id: "grpo-1", algo: "grpo", label: "GRPO", config: {} },
];

describe("run specs", () => {
  beforeEach(resetColours);

  it("ids are the first free algo-N and valid URL ids", () => {
    expect(freeId(runs, "ppo")).toBe("ppo-2");
    expect(freeId(runs, "dpo")).toBe("dpo-1");
    expect(RUN_ID.test(freeId(runs, "reinforce"))).toBe(true);
  });

  it("new runs get distinguishable labels", () => {
    expect(newRunSpec(runs, "dpo")).toEqual({
      id: "dpo-1",
      algo: "dpo",
      label: "DPO",
      config: {},
      colour: 2,
    });
    expect(newRunSpec(runs, "ppo").label).toBe("PPO 2");
    // Beside a lesson's "GRPO G = 2" and "GRPO G = 8" a new run is plain "GRPO"; numbers fill the first gap.
    const lesson: RunSpec[] = [
      { id: "grpo-1", algo: "grpo", label: "GRPO G = 2", config: {} },
      { id: "grpo-2", algo: "grpo", label: "GRPO G = 8", config: {} },
    ];
    expect(newRunSpec(lesson, "grpo").label).toBe("GRPO");
    const named = [...runs, { id: "ppo-3", algo: "ppo" as const, label: "PPO 3", config: {} }];
    expect(newRunSpec(named, "ppo").label).toBe("PPO 2");
    expect(newRunSpec([...named, { ...named[2], id: "ppo-2", label: "PPO 2" }], "ppo").label).toBe("PPO 4");
  });

  it("forks copy the settings and name the step", () => {
    const f = forkSpec(runs, runs[0], 12);
    expect(f).toEqual({
      id: "ppo-2",
      algo: "ppo",
      label: "PPO (fork @ 12)",
      config: { beta: 0.1 },
      colour: 2,
      forkOf: { id: "ppo-1", step: 12 },
    });
    expect(f.config).not.toBe(runs[0].config);
    const again = forkSpec([...runs, f], f, 20);
    expect(again.label).toBe("PPO (fork @ 20)");
    expect(again.forkOf).toEqual({ id: "ppo-2", step: 20 });
    // Before the first step a duplicate is named as a new run ("PPO 2"), as a link's reader sees it.
    const copy = forkSpec(runs, runs[0], 0);
    expect(copy.label).toBe("PPO 2");
    expect(copy.forkOf).toEqual({ id: "ppo-1", step: 0 });
    expect(forkSpec([...runs, copy], { ...copy, label: "PPO 2 (fork @ 3)" }, 0).label).toBe("PPO 2 2");
    const long = { ...runs[0], label: "x".repeat(60) };
    expect(forkSpec([long], long, 0).label).toBe(`${"x".repeat(58)} 2`);
  });

  it("a new run takes the colour the others leave free, and records it", () => {
    // GRPO was given slot 5 (e.g. a run between them was removed): the new run takes 1, the lowest free.
    const gap: RunSpec[] = [runs[0], { ...runs[1], colour: 5 }];
    const d = newRunSpec(gap, "dpo");
    expect(d.colour).toBe(1);
    expect(colourMap([...gap, d])).toEqual({
      "ppo-1": "var(--run-0)",
      "grpo-1": "var(--run-5)",
      "dpo-1": "var(--run-1)",
    });
  });
});

describe("a new run beside others", () => {
  const experiment: RunSpec[] = [
    {
      id: "ppo-1",
      algo: "ppo",
      label: "PPO",
      config: { batchPrompts: 16, maxNewTokens: 48, beta: 0, lr: 3e-5, reward: "proxy" },
    },
    {
      id: "dpo-1",
      algo: "dpo",
      label: "DPO",
      config: { batchPairs: 16, maxNewTokens: 48, beta: 0.5, lr: 3e-5, reward: "proxy" },
    },
    {
      id: "grpo-1",
      algo: "grpo",
      label: "GRPO",
      config: { batchPrompts: 4, numGenerations: 8, maxNewTokens: 48, beta: 0, lr: 3e-5, reward: "proxy" },
    },
  ];

  it("takes the sampling, optimiser and reward settings every run shares that its algorithm has", () => {
    // batchPrompts differs (16 vs 4) and DPO has none; β is never taken (a KL weight in PPO and GRPO, DPO's
    // implicit-reward temperature): the 48-token limit, the lr and the proxy reward are shared.
    const shared = { maxNewTokens: 48, lr: 3e-5, reward: "proxy" };
    expect(newRunSpec(experiment, "rloo").config).toEqual(shared);
    expect(sharedConfig(experiment.slice(0, 1).concat(experiment.slice(2)), "dpo")).toEqual(shared);
    // Best-of-n trains nothing: no lr.
    expect(sharedConfig(experiment, "bon")).toEqual({ maxNewTokens: 48, reward: "proxy" });
    // β alike in every run still stays the new run's own default.
    const sameBeta = experiment.map((r) => ({ ...r, config: { ...r.config, beta: 0.1 } }));
    expect(sharedConfig(sameBeta, "rloo")).not.toHaveProperty("beta");
    // Runs of one algorithm share their batch too.
    const lesson: RunSpec[] = [
      { id: "grpo-1", algo: "grpo", label: "G 2", config: { numGenerations: 2, batchPrompts: 4 } },
      { id: "grpo-2", algo: "grpo", label: "G 8", config: { numGenerations: 2, batchPrompts: 4 } },
    ];
    expect(sharedConfig(lesson, "ppo")).toEqual({ batchPrompts: 4 });
    // A run of an algorithm already there starts from the settings of its last run, β too (a teacher adding a
    // second GRPO to compare β with the first compared batch sizes too before: 4 × 8 against the default 8 × 8).
    expect(newRunSpec(experiment, "grpo").config).toEqual(experiment[2].config);
    const twoPpo: RunSpec[] = [
      { id: "ppo-1", algo: "ppo", label: "a", config: { batchPrompts: 16, numMiniBatches: 16, beta: 0 } },
      { id: "ppo-2", algo: "ppo", label: "b", config: { batchPrompts: 32, numMiniBatches: 16, beta: 0.1 } },
      { id: "dpo-1", algo: "dpo", label: "DPO", config: { batchPairs: 16, beta: 0.1 } },
    ];
    // As one whole: 16 minibatches taken with 16 prompts would not fit the default 8 (PPO refuses that).
    expect(sharedConfig(twoPpo, "ppo")).toEqual(twoPpo[1].config);
    // No runs, or none set: the defaults.
    expect(sharedConfig([], "ppo")).toEqual({});
    expect(newRunSpec(runs, "dpo").config).toEqual({});
  });

  it("leaves a value its algorithm refuses at the default", () => {
    const hot = experiment.map((r) => ({ ...r, config: { ...r.config, temperature: 0.01 } }));
    expect(sharedConfig(hot, "grpo")).not.toHaveProperty("temperature");
    const fine = experiment.map((r) => ({ ...r, config: { ...r.config, temperature: 0.7 } }));
    expect(sharedConfig(fine, "grpo")).toHaveProperty("temperature", 0.7);
  });

  it("takes shared settings from the lab's own runs only, and names itself among all", () => {
    // A run imported for comparison (another experiment's, custom reward) neither blocks nor sets a setting.
    const imported: RunSpec = {
      id: "grpo-2",
      algo: "grpo",
      label: "GRPO 2",
      config: { maxNewTokens: 8, reward: "custom" },
    };
    const spec = newRunSpec([...experiment, imported], "grpo", experiment);
    expect(spec.config).toEqual({ ...experiment[2].config, maxNewTokens: 48, lr: 3e-5, reward: "proxy" });
    expect(spec.label).toBe("GRPO 3");
    expect(spec.id).toBe("grpo-3");
  });
});
