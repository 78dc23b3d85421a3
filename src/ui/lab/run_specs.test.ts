import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { RUN_ID } from "../../lab/settings";
import { forkSpec, freeId, newRunSpec } from "./run_specs";

const runs: RunSpec[] = [
  { id: "ppo-1", algo: "ppo", label: "PPO", config: { beta: 0.1 } },
  { id: "grpo-1", algo: "grpo", label: "GRPO", config: {} },
];

describe("run specs", () => {
  it("ids are the first free algo-N and valid URL ids", () => {
    expect(freeId(runs, "ppo")).toBe("ppo-2");
    expect(freeId(runs, "dpo")).toBe("dpo-1");
    expect(RUN_ID.test(freeId(runs, "reinforce"))).toBe(true);
  });

  it("new runs get distinguishable labels", () => {
    expect(newRunSpec(runs, "dpo")).toEqual({ id: "dpo-1", algo: "dpo", label: "DPO", config: {} });
    expect(newRunSpec(runs, "ppo").label).toBe("PPO 2");
  });

  it("forks copy the settings and name the step", () => {
    const f = forkSpec(runs, runs[0], 12);
    expect(f).toEqual({ id: "ppo-2", algo: "ppo", label: "PPO (fork @ 12)", config: { beta: 0.1 } });
    expect(f.config).not.toBe(runs[0].config);
    expect(forkSpec([...runs, f], f, 20).label).toBe("PPO (fork @ 20)");
  });
});
