import { describe, expect, it } from "vitest";
import { checkpointMismatch, pairCheckpoints } from "../../src/lab/export/import_match";

const run = (algo: string, label: string, step = 4) => ({ algo, label, step, task: "arithmetic", seed: 0 });
const meta = (algo: string, label: string, steps = "4") => ({
  algo,
  run: label,
  steps,
  task: "arithmetic",
  seed: "0",
});

describe("pairing run files with checkpoints", () => {
  it("gives each run file the checkpoint that names it, before one that names nothing", () => {
    // A checkpoint from another tool (no metadata) first, then the one saved with the run.
    const pairs = pairCheckpoints([run("ppo", "PPO")], [{}, meta("ppo", "PPO")]);
    expect(pairs).toEqual([{ index: 1, problem: null }]);
    const two = pairCheckpoints(
      [run("ppo", "PPO"), run("dpo", "DPO")],
      [meta("dpo", "DPO"), meta("ppo", "PPO")],
    );
    expect(two.map((p) => p.index)).toEqual([1, 0]);
    // Taken once: a second run file of the same name gets none.
    expect(pairCheckpoints([run("ppo", "PPO"), run("ppo", "PPO")], [meta("ppo", "PPO")])).toEqual([
      { index: 0, problem: null },
      { index: null, problem: null },
    ]);
  });

  it("says why a lone checkpoint is not the lone run file's", () => {
    expect(pairCheckpoints([run("ppo", "PPO")], [meta("ppo", "PPO", "25")])).toEqual([
      {
        index: null,
        problem:
          "it was saved at step 25 and the run file's curves end at step 4 (export both at the same step)",
      },
    ]);
    expect(checkpointMismatch(meta("grpo", "GRPO"), run("ppo", "PPO"))).toBe(
      'it holds the weights of a grpo run ("GRPO"), not of this ppo run',
    );
    expect(checkpointMismatch({}, run("ppo", "PPO"))).toBeNull();
  });
});
