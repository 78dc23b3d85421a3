/**
 * The restore plan (src/lab/restore.ts) for a saved session: runs resume from their checkpoints with their curves
 * cut there, or only as curves; the notice names the runs that start over; runs of other settings are left out;
 * a fork's fork point comes back with its source.
 */
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { planRestore, relabelStartingOver } from "../../src/lab/restore";
import { points } from "./persist_db";

describe("restore plan", () => {
  const spec: ExperimentSpec = { ...defaultExperiment(), model: "nano" };
  const session = {
    spec,
    runs: [
      {
        spec: spec.runs[0],
        status: "paused" as const,
        step: 20,
        history: points(1, 20),
        markers: [
          { runId: "ppo-1", step: 5, label: "a" },
          { runId: "ppo-1", step: 18, label: "b" },
        ],
        checkpoint: {
          runId: "ppo-1",
          bytes: new Uint8Array(4),
          step: 15,
          samples: 120,
          tokens: 1500,
          savedAt: 0,
        },
      },
      {
        spec: spec.runs[1],
        status: "paused" as const,
        step: 4,
        history: points(1, 4),
        markers: [],
        checkpoint: null,
      },
      {
        spec: { ...spec.runs[2], config: { beta: 0 } },
        status: "paused" as const,
        step: 9,
        history: points(1, 9),
        markers: [],
        checkpoint: null,
      },
    ],
  };

  it("resumes runs from their checkpoints and cuts the curves there", () => {
    const plan = planRestore(spec, session, true);
    expect(plan.runs.map((r) => r.spec.id)).toEqual(["ppo-1"]); // dpo-1: no checkpoint; grpo-1: other settings
    expect(plan.runs[0].history.at(-1)?.step).toBe(15);
    expect(plan.runs[0].markers.map((m) => m.label)).toEqual(["a"]);
    expect(plan.checkpoints).toEqual([
      { runId: "ppo-1", bytes: new Uint8Array(4), at: { step: 15, samples: 120, tokens: 1500 } },
    ]);
    expect(plan.notice).toMatch(/DPO had no saved checkpoint yet .* it starts over/);
    // grpo-1 has other settings here: the opened experiment has no place for it (the page keeps it first).
    expect(plan.leftOut.map((r) => r.spec.id)).toEqual(["grpo-1"]);
  });

  it("keeps the settings turned since a run's last step when it resumes, unless one changed after its checkpoint", () => {
    const untrained = { beta: 0.04 };
    const at = (step: number) => ({
      ...session.runs[0],
      untrained,
      checkpoint: {
        runId: "ppo-1",
        bytes: new Uint8Array(4),
        step,
        samples: 8 * step,
        tokens: 100 * step,
        savedAt: 0,
      },
    });
    expect(planRestore(spec, { ...session, runs: [at(20)] }, true).runs[0].untrained).toEqual(untrained);
    // From step 15 (steps 16–20 to train again) the weights did not train with them either: still untrained,
    // unless a setting changed after step 15 (marker "b" at 18), whose old value the weights at 15 had.
    expect(planRestore(spec, { ...session, runs: [at(15)] }, true).runs[0]).not.toHaveProperty("untrained");
    const unmarked = { ...at(15), markers: session.runs[0].markers.slice(0, 1) };
    expect(planRestore(spec, { ...session, runs: [unmarked] }, true).runs[0].untrained).toEqual(untrained);
    // Curves only (no worker to resume): the run stays at its step, its settings as they were.
    expect(planRestore(spec, { ...session, runs: [at(15)] }, false).runs[0].untrained).toEqual(untrained);
  });

  it("resumes a run whose checkpoint is saved but whose curves are not yet (a reload right after a step)", () => {
    const ck = { runId: "dpo-1", bytes: new Uint8Array(2), step: 1, samples: 2, tokens: 8, savedAt: 0 };
    const early = { ...session, runs: [{ ...session.runs[1], step: 1, history: [], checkpoint: ck }] };
    const plan = planRestore(spec, early, true);
    expect(plan.runs.map((r) => [r.spec.id, r.step, r.history.length])).toEqual([["dpo-1", 1, 0]]);
    expect(plan.checkpoints.map((c) => c.at.step)).toEqual([1]);
    expect(plan.notice).toBeNull();
  });

  it("keeps only the curves when the worker cannot load checkpoints, and nothing for another experiment", () => {
    const plan = planRestore(spec, session, false);
    expect(plan.checkpoints).toEqual([]);
    expect(plan.runs[0].history).toHaveLength(20);
    expect(plan.notice).toMatch(/PPO, DPO/);
    expect(planRestore({ ...spec, seed: 1 }, session, true).runs).toEqual([]);
    expect(planRestore({ ...spec, seed: 1 }, session, true).leftOut).toHaveLength(3);
    expect(planRestore(spec, null, true).runs).toEqual([]);
    // Another start model or task is another experiment too.
    for (const other of [
      { ...spec, model: "sft" as const },
      { ...spec, task: "arithmetic" as const },
    ]) {
      expect(planRestore(other, session, true).runs).toEqual([]);
      expect(planRestore(other, session, true).checkpoints).toEqual([]);
    }
  });

  it("leaves out a run whose setting's value changed, the keys being the same", () => {
    const now = { ...spec.runs[0], config: { ...spec.runs[0].config, batchPrompts: 12 } };
    const saved = {
      ...session.runs[0],
      spec: { ...spec.runs[0], config: { ...spec.runs[0].config, batchPrompts: 16 } },
    };
    const plan = planRestore({ ...spec, runs: [now] }, { spec, runs: [saved] }, true);
    expect(plan.checkpoints).toEqual([]);
    expect(plan.runs).toEqual([]);
    expect(plan.leftOut.map((r) => r.spec.id)).toEqual(["ppo-1"]);
  });

  it("brings a fork's fork point back from the saved run (a link lacks it) when its source comes back too", () => {
    const ck = (runId: string, step: number) => ({
      runId,
      bytes: new Uint8Array(2),
      step,
      samples: 0,
      tokens: 0,
      savedAt: 0,
    });
    const fork = { id: "ppo-2", algo: "ppo" as const, label: "PPO (fork @ 10)", config: {} };
    const withFork = { ...spec, runs: [...spec.runs, fork] };
    const saved = {
      spec: withFork,
      runs: [
        { ...session.runs[0], checkpoint: ck("ppo-1", 15) },
        {
          spec: { ...fork, forkOf: { id: "ppo-1", step: 10 } },
          status: "paused" as const,
          step: 14,
          history: points(1, 14),
          markers: [],
          checkpoint: ck("ppo-2", 14),
        },
      ],
    };
    const plan = planRestore(withFork, saved, true);
    expect(plan.runs.map((r) => [r.spec.id, r.spec.forkOf])).toEqual([
      ["ppo-1", undefined],
      ["ppo-2", { id: "ppo-1", step: 10 }],
    ]);
    // The source resumes before the fork step (it stopped in error, saving no checkpoint since; the fork was
    // made after that): the fork is drawn from where the source's curve ends.
    const early = { ...saved, runs: [{ ...saved.runs[0], checkpoint: ck("ppo-1", 8) }, saved.runs[1]] };
    expect(planRestore(withFork, early, true).runs[1].spec.forkOf).toEqual({ id: "ppo-1", step: 8 });
    // The source starts over (no checkpoint): the fork is drawn whole.
    const alone = { ...saved, runs: [{ ...saved.runs[0], checkpoint: null }, saved.runs[1]] };
    expect(planRestore(withFork, alone, true).runs.map((r) => [r.spec.id, r.spec.forkOf])).toEqual([
      ["ppo-2", undefined],
    ]);
    // A fork of the fork (at 12) whose source starts over: a fork of the first run, at the earlier fork step.
    const grandchild = { id: "ppo-3", algo: "ppo" as const, label: "PPO (fork @ 12)", config: {} };
    const chain = { ...withFork, runs: [...withFork.runs, grandchild] };
    const three = {
      spec: chain,
      runs: [
        saved.runs[0],
        { ...saved.runs[1], checkpoint: null },
        {
          ...saved.runs[1],
          spec: { ...grandchild, forkOf: { id: "ppo-2", step: 12 } },
          checkpoint: ck("ppo-3", 14),
        },
      ],
    };
    expect(planRestore(chain, three, true).runs.map((r) => [r.spec.id, r.spec.forkOf])).toEqual([
      ["ppo-1", undefined],
      ["ppo-3", { id: "ppo-1", step: 10 }],
    ]);
  });

  it("names the forks and imports that will start over as Reset does; those that resume keep their labels", () => {
    const ck = { runId: "ppo-3", bytes: new Uint8Array(2), step: 14, samples: 0, tokens: 0, savedAt: 0 };
    const run = (id: string, label: string) => ({ id, algo: "ppo" as const, label, config: {} });
    const opened = {
      ...spec,
      runs: [
        ...spec.runs,
        run("ppo-2", "PPO (fork @ 10)"),
        run("ppo-3", "PPO (fork @ 12)"),
        run("ppo-4", "PPO (imported)"),
      ],
    };
    const saved = (id: string, checkpoint: typeof ck | null) => ({
      spec: opened.runs.find((r) => r.id === id) ?? opened.runs[0],
      status: "paused" as const,
      step: 14,
      history: points(1, 14),
      markers: [],
      checkpoint,
    });
    // ppo-3 saved a checkpoint; ppo-2 and the import did not (a reload within 30 s of training).
    const session = { spec: opened, runs: [saved("ppo-2", null), saved("ppo-3", ck), saved("ppo-4", null)] };
    const labels = (x: ExperimentSpec) => x.runs.map((r) => r.label);
    expect(labels(relabelStartingOver(opened, session, true))).toEqual([
      "PPO",
      "DPO",
      "GRPO",
      "PPO 2",
      "PPO (fork @ 12)",
      "PPO 3",
    ]);
    // A link opened where nothing of it is saved (another browser): every run starts from the start model.
    expect(labels(relabelStartingOver(opened, null, true)).slice(3)).toEqual(["PPO 2", "PPO 3", "PPO 4"]);
    expect(
      labels(relabelStartingOver(opened, { ...session, spec: { ...opened, seed: 1 } }, true)).slice(3),
    ).toEqual(["PPO 2", "PPO 3", "PPO 4"]);
    // A worker that cannot load checkpoints brings the curves back: the labels stay with them.
    expect(relabelStartingOver(opened, null, false)).toBe(opened);
    expect(relabelStartingOver(spec, null, true)).toBe(spec);
  });
});
