/**
 * A run on its own seed (RunSpec.seed ≠ the experiment's) is told apart: the legend's label says "(seed N)"
 * unless its label already does ("PPO seed 1", Repeat on other seeds' names), and the run card shows "seed N".
 */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { seededLabel, seedNote } from "../../lab/seed_labels";
import { type RunState, useLab } from "../lab_store";
import { linesOf, markersOf, visibleRuns } from "./visible_runs";

const run = (spec: RunSpec): RunState => ({
  spec,
  status: "paused",
  step: 0,
  history: [],
  markers: [],
  samples: [],
  error: null,
});

describe("a run's own seed in its labels", () => {
  it("seedNote and seededLabel mark only a seed that is not the experiment's, once", () => {
    const ppo: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };
    expect(seedNote(ppo, 0)).toBeNull();
    expect(seedNote({ seed: 0 }, 0)).toBeNull();
    expect(seedNote({ seed: 3 }, 0)).toBe("seed 3");
    expect(seededLabel({ ...ppo, seed: 3 }, 0)).toBe("PPO (seed 3)");
    expect(seededLabel({ ...ppo, seed: 3 }, 3)).toBe("PPO");
    expect(seededLabel({ ...ppo, label: "PPO seed 3", seed: 3 }, 0)).toBe("PPO seed 3");
    // "seed 1" is not said by "seed 12".
    expect(seededLabel({ ...ppo, label: "PPO seed 12", seed: 1 }, 0)).toBe("PPO seed 12 (seed 1)");
  });

  it("the charts' lines and markers carry the seeded label", () => {
    const a: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };
    const b: RunSpec = { ...a, id: "ppo-2", label: "PPO β 1", seed: 2 };
    useLab.getState().setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [a, b] });
    useLab.getState().restoreRuns([run(a), run(b)]);
    const visible = visibleRuns(useLab.getState());
    expect(linesOf(visible, "reward").map((l) => l.runLabel)).toEqual(["PPO", "PPO β 1 (seed 2)"]);
    expect(markersOf(visible).map((m) => m.runLabel)).toEqual(["PPO", "PPO β 1 (seed 2)"]);
  });
});
