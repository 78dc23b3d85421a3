import { describe, expect, it } from "vitest";
import { LESSONS } from "../../lab/presets";
import type { MetricPoint } from "../../lab/protocol";
import { asTrained, lessonVerdict, verdictNumbers } from "./lesson_verdict";

const history = (values: number[]): MetricPoint[] =>
  values.map((v, i) => ({ step: i + 1, samples: 32, tokens: 320, metrics: { frac_reward_zero_std: v } }));

describe("a lesson's verdict on the page", () => {
  const lesson = LESSONS["grpo-groups"];

  it("runs the lesson's check on the steps up to its length, comparison runs left out", () => {
    const runs = {
      "grpo-g2": { history: history([0.7, 0.6, 0.7, /* past the lesson's end: */ 0, 0, 0]) },
      "grpo-g8": { history: history([0.2, 0.3, 0.2, 1, 1, 1]) },
      cmp: { history: history([1, 1, 1]), comparison: true },
    };
    const v = lessonVerdict(lesson, runs, 3);
    expect(v.kind).toBe("verdict");
    if (v.kind !== "verdict") return;
    expect(v.verdict.ok).toBe(true);
    expect(v.verdict.numbers).toEqual({ frac_reward_zero_std_G2: 0.6667, frac_reward_zero_std_G8: 0.2333 });
    expect(verdictNumbers(v.verdict)).toBe("frac_reward_zero_std_G2 0.6667 · frac_reward_zero_std_G8 0.2333");
    // Over all six steps the effect reverses: the cut at the lesson's length is what the check reads.
    const all = lessonVerdict(lesson, runs, 6);
    expect(all.kind === "verdict" && all.verdict.ok).toBe(false);
  });

  it("says why there is no verdict when a run of the lesson is missing", () => {
    const v = lessonVerdict(lesson, { "grpo-g2": { history: history([0.7]) } }, 1);
    expect(v.kind).toBe("unavailable");
    if (v.kind === "unavailable") expect(v.reason).toMatch(/grpo-g8/);
  });

  it("writes a number that is not finite as a dash", () => {
    expect(verdictNumbers({ ok: false, summary: "", numbers: { a: Number.NaN, b: 1.5 } })).toBe(
      "a — · b 1.5",
    );
  });

  it("puts back the settings turned since a run's last step (the run as it trained)", () => {
    const run = { id: "a", algo: "grpo" as const, label: "A", config: { lr: 3e-4, beta: 0.1 } };
    expect(asTrained(run, undefined)).toBe(run);
    // lr was 1e-4 when it trained; beta was the default (absent) then.
    expect(asTrained(run, { lr: 1e-4, beta: null }).config).toEqual({ lr: 1e-4 });
    expect(run.config).toEqual({ lr: 3e-4, beta: 0.1 });
  });
});
