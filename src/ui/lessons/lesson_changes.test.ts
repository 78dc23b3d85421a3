/**
 * The lesson card's line on an experiment that differs from its lesson: the task and model, runs added, the
 * lesson's runs with other settings, algorithm or name; settings compared as the runs use them (a default spelt
 * out is no change).
 */
import { describe, expect, it } from "vitest";
import { ENTROPY_COLLAPSE } from "../../lab/presets/lessons_dynamics";
import type { ExperimentSpec } from "../../lab/protocol";
import { lessonChanges, lessonChangesText } from "./lesson_changes";

const planned = ENTROPY_COLLAPSE.experiment(0);
const edit = (f: (s: ExperimentSpec) => ExperimentSpec) => {
  const now = f(structuredClone(planned));
  return lessonChangesText(lessonChanges(planned, now), planned);
};

describe("how an experiment differs from its lesson", () => {
  it("says nothing for the lesson as it is, or with its defaults spelt out", () => {
    expect(edit((s) => s)).toBe("");
    expect(
      edit((s) => {
        s.runs[0].config = { ...s.runs[0].config, epsilon: 0.2, entCoef: 0 };
        return s;
      }),
    ).toBe("");
  });

  it("names a setting changed on one of its runs, with the lesson's value", () => {
    const text = edit((s) => {
      s.runs[1].config = { ...s.runs[1].config, lr: 1e-4 };
      return s;
    });
    expect(text).toBe(
      "Changed: GRPO lr 3e-5: lr 1e-4 (the lesson's 3e-5). What to watch below, and its numbers, are for the lesson as it was made.",
    );
  });

  it("names runs added, renamed or of another algorithm, and another task and model", () => {
    const c = lessonChanges(planned, {
      task: "sentiment",
      model: "nano",
      runs: [
        { ...planned.runs[0], label: "slow" },
        { ...planned.runs[1], algo: "rloo" },
        planned.runs[2],
        { id: "extra", algo: "ppo", label: "PPO", config: {} },
      ],
    });
    expect(c).toEqual({
      setup: "the sentiment task and the nano (random init) model",
      added: ["PPO"],
      changed: ["slow (the lesson's GRPO lr 1e-5)", "GRPO lr 3e-5: now RLOO"],
      shorter: null,
    });
    expect(lessonChangesText(c, planned)).toMatch(
      /^Runs on the sentiment task and the nano \(random init\) model \(the lesson's: the arithmetic task, the shipped SFT model\)\. Changed: .*\. Added: PPO\. /,
    );
  });

  it("names the Pipeline's SFT model once it was handed over (the spec still names the lesson's model)", () => {
    const c = lessonChanges(planned, planned, "Pipeline's SFT model (nano, 40 steps)");
    expect(c.setup).toBe("the Pipeline's SFT model (nano, 40 steps)");
    expect(lessonChangesText(c, planned)).toMatch(
      /^Runs on the Pipeline's SFT model \(nano, 40 steps\) \(the lesson's: the arithmetic task, the shipped SFT model\)\./,
    );
  });

  it("says when the experiment stops before the lesson's length (a link of the lesson when it was shorter)", () => {
    // A reviewer opened a 60-step link of a lesson now 150 steps long: "step 0 of 60", and nothing said.
    const length = planned.steps ?? 0;
    expect(length).toBeGreaterThan(60);
    expect(edit((s) => ({ ...s, steps: 60 }))).toBe(
      `Stop at 60 (the lesson's length: ${length} steps). What to watch below, and its numbers, are for the lesson as it was made.`,
    );
    // Longer, or no stop step: the lesson's steps are all there.
    expect(edit((s) => ({ ...s, steps: length + 50 }))).toBe("");
    expect(edit((s) => ({ ...s, steps: 0 }))).toBe("");
  });
});
