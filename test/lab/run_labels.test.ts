import { describe, expect, it } from "vitest";
import { restartedSpecs } from "../../src/lab/run_labels";
import { useLab } from "../../src/ui/lab_store";

describe("labels after every run restarted", () => {
  it("a fork's mark goes; a label another run has gets the next free number; others stay the same objects", () => {
    const runs = [
      { id: "ppo-1", label: "PPO" },
      { id: "ppo-2", label: "PPO (fork @ 3)" },
      { id: "ppo-3", label: "PPO (fork @ 12)" },
      { id: "grpo-1", label: "GRPO, β = 0 (fork @ 5)" },
      { id: "dpo-1", label: "DPO 2" },
      { id: "dpo-2", label: "DPO 2 (fork @ 1)" },
    ];
    const out = restartedSpecs(runs);
    expect(out.map((r) => r.label)).toEqual(["PPO", "PPO 2", "PPO 3", "GRPO, β = 0", "DPO 2", "DPO 2 2"]);
    expect(out[0]).toBe(runs[0]);
    expect(out[4]).toBe(runs[4]);
    expect(out.map((r) => r.id)).toEqual(runs.map((r) => r.id));
  });

  it("no run keeps its fork point, even one whose label lost the fork mark (cut at 60 characters)", () => {
    const runs = [
      { id: "ppo-1", label: "PPO" },
      { id: "ppo-2", label: "PPO (fork @ 3)", forkOf: { id: "ppo-1", step: 3 } },
      { id: "ppo-3", label: "a long name cut before its fork mark", forkOf: { id: "ppo-1", step: 7 } },
    ];
    const out = restartedSpecs(runs);
    expect(out).toEqual([runs[0], { id: "ppo-2", label: "PPO 2" }, { id: "ppo-3", label: runs[2].label }]);
    expect(out[0]).toBe(runs[0]);
  });

  it("numbers forks by id, whatever the list order (the worker and the page order forks differently)", () => {
    const page = [
      { id: "ppo-1", label: "PPO" },
      { id: "ppo-2", label: "PPO (fork @ 3)" },
      { id: "ppo-10", label: "PPO (fork @ 5)" },
    ];
    const worker = [page[0], page[2], page[1]];
    const byId = (runs: { id: string; label: string }[]) =>
      Object.fromEntries(restartedSpecs(runs).map((r) => [r.id, r.label]));
    expect(byId(page)).toEqual({ "ppo-1": "PPO", "ppo-2": "PPO 2", "ppo-10": "PPO 3" });
    expect(byId(worker)).toEqual(byId(page));
  });

  it("the store's Reset (clearProgress) relabels the runs it restarts, not a comparison run's", () => {
    const spec = (id: string, label: string) => ({ id, algo: "ppo" as const, label, config: {} });
    useLab.getState().setSpec({
      task: "arithmetic",
      model: "nano",
      seed: 0,
      runs: [
        spec("ppo-1", "PPO"),
        spec("ppo-2", "PPO (fork @ 3)"),
        spec("ppo-3", "PPO (fork @ 2) (imported)"),
      ],
    });
    useLab.getState().restoreRuns([
      {
        spec: spec("ppo-3", "PPO (fork @ 2) (imported)"),
        status: "paused",
        step: 2,
        history: [],
        markers: [],
        samples: [],
        error: null,
        comparison: true,
      },
    ]);
    useLab.getState().clearProgress();
    const s = useLab.getState();
    expect(s.spec.runs.map((r) => r.label)).toEqual(["PPO", "PPO 2", "PPO (fork @ 2) (imported)"]);
    expect(s.runs["ppo-2"].spec.label).toBe("PPO 2");
    expect(s.runs["ppo-3"].comparison).toBe(true);
  });
});
