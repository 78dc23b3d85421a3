/**
 * Changing the task, start model or seed from the page (src/lab/experiment_change.ts): the runs are kept, a
 * lesson survives only a new seed, start models that cannot fit a task's prompts are refused, and the table of
 * prompt lengths matches the loaded tasks.
 */
import { describe, expect, it } from "vitest";
import { defaultExperiment, testExperiment } from "../../src/lab/defaults";
import {
  changeExperiment,
  completionRoom,
  MIN_COMPLETION_ROOM,
  SHIPPED_CONTEXT,
  startModelProblem,
  TASK_PROMPT_TOKENS,
} from "../../src/lab/experiment_change";
import { LESSONS } from "../../src/lab/presets/index";
import { checkSpec } from "../../src/lab/spec_check";
import { PRESETS } from "../../src/model/config";
import { loadTask, TASK_IDS } from "../../src/tasks";
import { readTokenizerFile } from "../../src/tokenizer/node";

describe("changeExperiment", () => {
  it("TASK_PROMPT_TOKENS is each task's longest prompt (BOS included) over its whole pool", async () => {
    for (const id of TASK_IDS) {
      const task = await loadTask(id, { evalSize: 16 });
      const tok = readTokenizerFile(`public/${task.tokenizerPath}`);
      const pool = [...task.prompts.train, ...task.prompts.eval];
      const longest = Math.max(...pool.map((p) => tok.encode(p, { bos: true }).length));
      expect(longest, id).toBe(TASK_PROMPT_TOKENS[id]);
    }
  });

  it("SHIPPED_CONTEXT is each shipped SFT model's context; completionRoom what a run can sample", async () => {
    const { readFileSync } = await import("node:fs");
    const manifest = JSON.parse(readFileSync("public/models/manifest.json", "utf8")) as {
      files: { path: string; kind: string; config?: { contextLength: number } }[];
    };
    for (const id of TASK_IDS) {
      const sft = manifest.files.find((f) => f.kind === "sft" && f.path === `models/${id}/sft.safetensors`);
      expect(sft?.config?.contextLength, id).toBe(SHIPPED_CONTEXT[id]);
    }
    expect(completionRoom("arithmetic", "sft")).toBe(9);
    expect(completionRoom("sentiment", "sft")).toBe(128 - 62);
    expect(completionRoom("arithmetic", "nano")).toBe(PRESETS.nano.contextLength - 7);
  });

  it("keeps the runs and step limit, changes what they share", () => {
    const spec = { ...testExperiment(), steps: 12 };
    const next = changeExperiment(spec, { task: "arithmetic", model: "nano", seed: 7 });
    const stays = "Stop at 12 stays set: the new runs pause at step 12 (clear it in the top bar to go on)";
    expect(next).toEqual({ spec: { ...spec, seed: 7 }, changes: [stays] });
    expect(
      changeExperiment(testExperiment(), { task: "arithmetic", model: "nano", seed: 7 })?.changes,
    ).toEqual([]);
    const other = changeExperiment(spec, { task: "sentiment", model: "sft", seed: 0 });
    expect(other?.spec.runs).toEqual(spec.runs);
    expect(other?.spec).toMatchObject({ task: "sentiment", model: "sft", seed: 0, steps: 12 });
    // Nothing changed: nothing to do.
    expect(changeExperiment(spec, { task: "arithmetic", model: "nano", seed: 0 })).toBeNull();
  });

  it("runs start over: an imported run or a fork loses its mark", () => {
    const base = testExperiment();
    const spec = {
      ...base,
      runs: [
        { ...base.runs[0], label: "PPO (imported)" },
        { ...base.runs[1], label: "DPO (fork @ 3)" },
        base.runs[2],
      ],
    };
    const next = changeExperiment(spec, { task: "arithmetic", model: "nano", seed: 3 });
    expect(next?.spec.runs.map((r) => r.label)).toEqual(base.runs.map((r) => r.label));
  });

  it("a lesson stays a lesson (with its step limit) on a new seed, not on a new task or start model", () => {
    const lesson = LESSONS["grpo-groups"].experiment(0);
    expect(lesson.preset).toBe("grpo-groups");
    expect(lesson.steps).toBeGreaterThan(0);
    const seed = changeExperiment(lesson, { ...lesson, seed: 2 });
    expect(seed?.spec).toMatchObject({ preset: "grpo-groups", steps: lesson.steps });
    expect(seed?.changes).toEqual([]);
    const task = lesson.task === "sentiment" ? "arithmetic" : "sentiment";
    for (const left of [
      changeExperiment(lesson, { ...lesson, task }),
      changeExperiment(lesson, { ...lesson, model: "tiny" }),
    ]) {
      expect(left?.spec.preset).toBeUndefined();
      expect(left?.spec.steps).toBeUndefined();
      expect(left?.changes).toEqual([
        `this leaves the lesson (its narrative is about its own task and start model), and its stop at step ${lesson.steps}`,
      ]);
    }
  });

  it("a Safe RLHF cost the new task lacks goes back to length, d with it unless the user chose d", () => {
    const safe = (config: Record<string, string | number>) => ({
      task: "sentiment" as const,
      model: "sft" as const,
      seed: 0,
      runs: [{ id: "safe-1", algo: "safe_rlhf" as const, label: "Safe", config }],
    });
    const suggested = changeExperiment(safe({ cost: "positive_words", costLimit: 1 }), {
      task: "arithmetic",
      model: "sft",
      seed: 0,
    });
    expect(suggested?.spec.runs[0].config).toEqual({});
    expect(suggested?.changes).toEqual([
      "Safe: the arithmetic task has no cost “positive_words”, so it uses the completion length (limit d = 8 tokens)",
    ]);
    const chosen = changeExperiment(safe({ cost: "positive_words", costLimit: 3 }), {
      task: "arithmetic",
      model: "sft",
      seed: 0,
    });
    expect(chosen?.spec.runs[0].config).toEqual({ costLimit: 3 });
    // The length cost and a task that has the cost carry over as they are.
    const kept = changeExperiment(safe({ cost: "positive_words", costLimit: 1 }), {
      task: "sentiment",
      model: "sft",
      seed: 4,
    });
    expect(kept?.spec.runs[0].config).toEqual({ cost: "positive_words", costLimit: 1 });
    // Whatever the dialog makes, a link opens as it is (checkSpec raises no issue).
    for (const r of [suggested, chosen, kept]) {
      const issues: string[] = [];
      checkSpec(r?.spec as never, issues);
      expect(issues).toEqual([]);
    }
  });

  it("a run on a reward model made in the page goes back to the gold scorer, and says so", () => {
    const spec = {
      ...testExperiment(),
      runs: testExperiment().runs.map((r) =>
        r.algo === "grpo" ? { ...r, config: { ...r.config, reward: "pipeline" } } : r,
      ),
    };
    const next = changeExperiment(spec, { task: "arithmetic", model: "nano", seed: 1 });
    expect(next?.spec.runs.find((r) => r.algo === "grpo")?.config.reward).toBeUndefined();
    expect(next?.changes).toEqual([
      "GRPO optimises a reward model made in this page; the new experiment scores it with the gold scorer",
    ]);
  });

  it("refuses a start model whose context the task's prompts fill, and a bad seed", () => {
    const spec = defaultExperiment();
    expect(startModelProblem("sft", "sentiment")).toBeNull();
    expect(startModelProblem("nano", "arithmetic")).toBeNull();
    // nano's 32 tokens cannot hold sentiment's 62-token prompts; tiny's 128 can.
    expect(PRESETS.nano.contextLength - TASK_PROMPT_TOKENS.sentiment).toBeLessThan(MIN_COMPLETION_ROOM);
    expect(startModelProblem("nano", "sentiment")).toContain("too short for this task's prompts");
    expect(startModelProblem("tiny", "sentiment")).toBeNull();
    expect(() => changeExperiment(spec, { ...spec, model: "nano" })).toThrow(/too short/);
    for (const seed of [-1, 1.5, 2 ** 31, Number.NaN])
      expect(() => changeExperiment(spec, { ...spec, seed }), String(seed)).toThrow(RangeError);
  });

  it("the changed experiment is one a link may carry (checkSpec: only the seed differs, no issue)", () => {
    for (const lesson of Object.values(LESSONS)) {
      const spec = lesson.experiment(0);
      const next = changeExperiment(spec, { task: spec.task, model: spec.model, seed: 3 });
      expect(next?.changes, lesson.id).toEqual([]);
      const issues: string[] = [];
      const opened = checkSpec(next?.spec as never, issues);
      expect(opened, lesson.id).toEqual({ ...checkSpec(spec as never, []), seed: 3 });
      expect(issues).toEqual([]);
    }
  });
});
