/**
 * A task's known costs (Safe RLHF's `cost` beyond "length") wherever a run's settings enter or leave the lab:
 * the table the links are checked against matches the loaded tasks, a link asking for a cost its task lacks
 * opens with "length" and a notice, the TRL export refuses it, and the run card locks the cost once the run
 * has stepped (the run refuses the change too).
 */
import { describe, expect, it } from "vitest";
import { SAFE_RLHF_FIELDS, SafeRlhfRun } from "../../src/algorithms/safe_rlhf";
import { trlScript } from "../../src/lab/export/trl_script";
import { EXPERIMENT_FIELDS, TASK_COSTS } from "../../src/lab/settings";
import { checkSpec } from "../../src/lab/spec_check";
import { TASK_IDS } from "../../src/tasks";
import { loadTask } from "../../src/tasks/index";
import { lockReason } from "../../src/ui/lab/knobs";
import { NANO_COSTS, nanoEnv } from "../helpers/nano_env";

const safe = (cost: string) => ({ id: "safe-1", algo: "safe_rlhf", label: "Safe", config: { cost } });

describe("task costs", () => {
  it("the link-time table lists each loaded task's costs", async () => {
    for (const id of TASK_IDS) {
      const task = await loadTask(id, { evalSize: 16 });
      expect(Object.keys(task.costs ?? {}), id).toEqual(TASK_COSTS[id]);
    }
  });

  it("a link with a cost its task lacks opens with 'length' and says so", () => {
    const issues: string[] = [];
    const spec = checkSpec({ task: "arithmetic", runs: [safe("positive_words")] }, issues);
    expect(spec.runs[0].config).toEqual({});
    expect(issues).toEqual(['Safe: the arithmetic task has no cost "positive_words"; using "length"']);
    const ok: string[] = [];
    expect(checkSpec({ task: "sentiment", runs: [safe("positive_words")] }, ok).runs[0].config).toEqual({
      cost: "positive_words",
    });
    expect(ok).toEqual([]);
  });

  it("the TRL export refuses a cost its task lacks", () => {
    const run = { spec: safe("positive_words") as never, step: 0 };
    expect(() => trlScript({ task: "arithmetic", model: "sft", seed: 0 }, run)).toThrow(
      'the arithmetic task has no cost "positive_words"',
    );
    expect(trlScript({ task: "sentiment", model: "sft", seed: 0 }, run)).toContain(
      "def cost(completion, ids):",
    );
  });

  it("the cost locks once the run has stepped, in the card and in the run", async () => {
    const field = SAFE_RLHF_FIELDS.find((f) => f.key === "cost");
    if (!field) throw new Error("cost");
    expect(lockReason(field, false)).toBeNull();
    expect(lockReason(field, true)).toContain("what the multiplier λ and the limit d are measured in");
    const env = { ...(await nanoEnv(5)), costs: NANO_COSTS };
    const run = new SafeRlhfRun(env, { batchPrompts: 2, numGenerations: 2, maxNewTokens: 2 });
    run.setConfig({ cost: "positive_words" }); // before the first step: allowed
    run.setConfig({ cost: "length" });
    await run.step();
    expect(() => run.setConfig({ cost: "positive_words" })).toThrow(/fixed once the run has stepped/);
    expect(run.config.cost).toBe("length");
    run.destroy();
  });
});

describe("the task lists", () => {
  it("the page's task menu (EXPERIMENT_FIELDS) and the cost table name every task of the registry, in its order", () => {
    const menu = EXPERIMENT_FIELDS.find((f) => f.key === "task");
    expect(menu?.kind === "enum" ? menu.options : []).toEqual([...TASK_IDS]);
    expect(Object.keys(TASK_COSTS).sort()).toEqual([...TASK_IDS].sort());
  });
});
