import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../src/lab/protocol";
import {
  detachForks,
  forkLabel,
  historyMarkProblem,
  restartedSpecs,
  withoutForkPoints,
} from "../../src/lab/run_labels";
import { MAX_LABEL } from "../../src/lab/settings";
import { checkRun } from "../../src/lab/spec_check";
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

  it("an import's mark goes too, with a fork's of an import; other parentheses stay", () => {
    const runs = [
      { id: "ppo-1", label: "PPO" },
      { id: "ppo-2", label: "PPO (imported)" },
      { id: "ppo-3", label: "PPO (imported 2) (fork @ 4)" },
      { id: "grpo-1", label: "GRPO (imported 3)" },
      { id: "dpo-1", label: "DPO (clean labels)" },
    ];
    const out = restartedSpecs(runs);
    expect(out.map((r) => r.label)).toEqual(["PPO", "PPO 2", "PPO 3", "GRPO", "DPO (clean labels)"]);
    expect(out[4]).toBe(runs[4]);
  });

  it("a fork's label ends with its fork step and stays within the label limit", () => {
    expect(forkLabel("PPO", 12)).toBe("PPO (fork @ 12)");
    expect(forkLabel("PPO (fork @ 3)", 12)).toBe("PPO (fork @ 12)");
    const long = "GRPO, β = 0.04, lr 3e-5, ε_high 0.28, G = 16 — the long one";
    for (const step of [9, 99, 100, 123456]) {
      const l = forkLabel(long, step);
      expect([...l].length).toBeLessThanOrEqual(MAX_LABEL);
      expect(l.endsWith(` (fork @ ${step})`)).toBe(true);
      // What a link or a saved spec accepts as it is.
      const issues: string[] = [];
      expect(checkRun({ id: "grpo-2", algo: "grpo", label: l }, 0, new Set(), issues)?.label).toBe(l);
      expect(issues).toEqual([]);
    }
  });

  it("a fork point names another run and a whole step ≥ 0; links carry none", () => {
    const issues: string[] = [];
    const read = (forkOf: unknown) =>
      checkRun({ id: "ppo-2", algo: "ppo", forkOf }, 0, new Set(), issues)?.forkOf;
    expect(read({ id: "ppo-1", step: 3 })).toEqual({ id: "ppo-1", step: 3 });
    expect([
      read({ id: "ppo-2", step: 3 }),
      read({ id: "ppo-1", step: -1 }),
      read({ id: "ppo-1", step: 1.5 }),
    ]).toEqual([undefined, undefined, undefined]);
    expect(read("ppo-1")).toBeUndefined();
    expect(issues).toHaveLength(4);
    expect(issues[0]).toMatch(/fork point was invalid; dropped/);
    const spec = { task: "arithmetic" as const, model: "nano" as const, seed: 0, runs: [] as RunSpec[] };
    expect(withoutForkPoints(spec)).toBe(spec);
    const forked = {
      ...spec,
      runs: [{ id: "b", algo: "ppo" as const, label: "B", config: {}, forkOf: { id: "a", step: 1 } }],
    };
    expect(withoutForkPoints(forked).runs).toEqual([{ id: "b", algo: "ppo", label: "B", config: {} }]);
  });

  it("forks of a run that goes or starts over become forks of its source, at the earlier fork step", () => {
    const r = (id: string, forkOf?: { id: string; step: number }): RunSpec => ({
      id,
      algo: "ppo",
      label: id,
      config: {},
      ...(forkOf && { forkOf }),
    });
    const runs = [
      r("a"),
      r("b", { id: "a", step: 5 }),
      r("c", { id: "b", step: 8 }),
      r("d", { id: "b", step: 2 }),
    ];
    const out = detachForks(runs, "b");
    expect(out.map((x) => x.forkOf)).toEqual([
      undefined,
      undefined,
      { id: "a", step: 5 },
      { id: "a", step: 2 },
    ]);
    expect(out[0]).toBe(runs[0]);
    expect(detachForks(runs, "a").map((x) => x.forkOf)).toEqual([
      undefined,
      undefined,
      runs[2].forkOf,
      runs[3].forkOf,
    ]);
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

describe("names a user types", () => {
  it("may not end as a fork's or an import's mark, which a restart removes", () => {
    for (const label of ["PPO (imported)", "my run (imported 2)", "DPO (fork @ 12)"])
      expect(historyMarkProblem(label), label).toMatch(/is the lab's mark for a fork or an import/);
    expect(historyMarkProblem("PPO (imported)")).toContain("“(imported)”");
    // …and a restart would have rewritten them: a DPO run named "PPO (imported)" beside a PPO run.
    const runs = [
      { id: "ppo-1", label: "PPO" },
      { id: "dpo-1", label: "PPO (imported)" },
    ];
    expect(restartedSpecs(runs).map((r) => r.label)).toEqual(["PPO", "PPO 2"]);
    for (const label of ["PPO", "PPO imported", "fork @ 3", "PPO (forked at 3)", "(imported) PPO"])
      expect(historyMarkProblem(label), label).toBeNull();
  });
});
