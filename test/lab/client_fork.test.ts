/**
 * LabClient.forkRun across the worker's round trip: the page copies the source's history to the fork, unless
 * the source was removed meanwhile, even when a new run has taken the source's id by the time the worker
 * answers (its history is not the fork's).
 */
import { describe, expect, it } from "vitest";
import type { LabWorkerApi, MetricPoint, RunSpec } from "../../src/lab/protocol";
import { LabClient } from "../../src/ui/client";
import { useLab } from "../../src/ui/lab_store";

const point = (step: number): MetricPoint => ({
  step,
  samples: step,
  tokens: step,
  metrics: { reward: step },
});
const source: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };
const forkSpec: RunSpec = { id: "ppo-2", algo: "ppo", label: "PPO (fork)", config: {} };

/** A client whose worker answers forkRun when `answer` is called; other commands resolve at once. */
function clientWithWorker() {
  let answer: (spec: RunSpec) => void = () => {};
  const api = {
    forkRun: (_id: string, spec: RunSpec) =>
      new Promise<RunSpec>((resolve) => {
        answer = (s) => resolve({ ...spec, ...s });
      }),
    removeRun: async () => {},
    addRun: async () => {},
  } as unknown as LabWorkerApi;
  const client = new LabClient();
  (client as unknown as { api: LabWorkerApi }).api = api;
  const s = useLab.getState();
  s.setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [source] });
  s.restoreRuns([
    {
      spec: source,
      status: "paused",
      step: 2,
      history: [point(1), point(2)],
      markers: [],
      samples: [],
      error: null,
      untrained: { lr: 1e-4 }, // lr turned after step 2
    },
  ]);
  s.setPhase("ready");
  return { client, answer: (s: RunSpec) => answer(s) };
}

const answered = { ...forkSpec, label: "PPO (fork @ 2)", forkOf: { id: "ppo-1", step: 2 } };

describe("a fork's round trip", () => {
  it("copies the source's history and keeps the fork point", async () => {
    const { client, answer } = clientWithWorker();
    const done = client.forkRun("ppo-1", forkSpec);
    answer(answered);
    await done;
    const fork = useLab.getState().runs["ppo-2"];
    expect(fork.spec.forkOf).toEqual({ id: "ppo-1", step: 2 });
    expect(fork.history.map((p) => p.step)).toEqual([1, 2]);
    // Its weights trained as the source's: the setting turned after step 2 is untrained in the fork too.
    expect(fork.untrained).toEqual({ lr: 1e-4 });
    expect(fork.step).toBe(2);
  });

  it("the source removed and its id taken by a new run meanwhile: the fork starts with nothing of the new run", async () => {
    const { client, answer } = clientWithWorker();
    const done = client.forkRun("ppo-1", forkSpec);
    await client.removeRun("ppo-1");
    await client.addRun({ id: "ppo-1", algo: "grpo", label: "GRPO", config: {} });
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 1, points: [point(1)] }]);
    answer(answered);
    await done;
    const fork = useLab.getState().runs["ppo-2"];
    expect(fork.spec.forkOf).toBeUndefined();
    expect(fork.history).toEqual([]);
    expect(fork.step).toBe(0);
    // The new run under the old id is untouched.
    expect(useLab.getState().runs["ppo-1"].spec.algo).toBe("grpo");
  });
});
