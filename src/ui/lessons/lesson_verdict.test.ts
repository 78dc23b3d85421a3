import { describe, expect, it } from "vitest";
import { LESSONS } from "../../lab/presets";
import type { MetricPoint } from "../../lab/protocol";
import { asTrained, lessonVerdict, verdictNumbers, verdictOnChangedRuns } from "./lesson_verdict";

const history = (values: number[]): MetricPoint[] =>
  values.map((v, i) => ({ step: i + 1, samples: 32, tokens: 320, metrics: { frac_reward_zero_std: v } }));

describe("a lesson's verdict on the page", () => {
  const lesson = LESSONS["grpo-groups"];
  const own = lesson.experiment(0).runs;

  it("runs the lesson's check on its own runs, on the steps up to its length", () => {
    const runs = {
      "grpo-g2": { history: history([0.7, 0.6, 0.7, /* past the lesson's end: */ 0, 0, 0]) },
      "grpo-g8": { history: history([0.2, 0.3, 0.2, 1, 1, 1]) },
      cmp: { history: history([1, 1, 1]), comparison: true },
    };
    const v = lessonVerdict(lesson, runs, 3, own);
    expect(v.kind).toBe("verdict");
    if (v.kind !== "verdict") return;
    expect(v.verdict.ok).toBe(true);
    expect(v.verdict.numbers).toEqual({ frac_reward_zero_std_G2: 0.6667, frac_reward_zero_std_G8: 0.2333 });
    expect(verdictNumbers(v.verdict)).toBe("frac_reward_zero_std_G2 0.6667 · frac_reward_zero_std_G8 0.2333");
    // Over all six steps the effect reverses: the cut at the lesson's length is what the check reads.
    const all = lessonVerdict(lesson, runs, 6, own);
    // A run added beside the lesson's (a fork repeats its source's steps) is not read: the KL estimators' check
    // pools its metrics over every run it is given.
    const kl = LESSONS["kl-estimators"];
    const klOwn = kl.experiment(0).runs;
    const k1 = (vals: number[]) =>
      vals.map((v, i) => ({
        step: i + 1,
        samples: 8,
        tokens: 80,
        metrics: { "objective/kl": v, "objective/kl_k3": Math.abs(v), "objective/kl_exact": Math.abs(v) },
      }));
    const klRuns = Object.fromEntries(klOwn.map((r) => [r.id, { history: k1([0.1, -0.05]) }]));
    const base = lessonVerdict(kl, klRuns, 2, klOwn);
    const forked = lessonVerdict(kl, { ...klRuns, fork: { history: k1([0.1, -0.05, -0.2]) } }, 2, klOwn);
    expect(forked).toEqual(base);
    expect(all.kind === "verdict" && all.verdict.ok).toBe(false);
  });

  it("says why there is no verdict when a run of the lesson is missing", () => {
    const v = lessonVerdict(lesson, { "grpo-g2": { history: history([0.7]) } }, 1, own);
    expect(v.kind).toBe("unavailable");
    const label = own.find((r) => r.id === "grpo-g8")?.label;
    if (v.kind === "unavailable") expect(v.reason).toBe(`the lesson's run “${label}” was removed`);
  });

  it("writes a number that is not finite as a dash", () => {
    expect(
      verdictNumbers({ ok: false, conditions: {}, summary: "", numbers: { a: Number.NaN, b: 1.5 } }),
    ).toBe("a — · b 1.5");
  });

  it("puts back the settings turned since a run's last step (the run as it trained)", () => {
    const run = { id: "a", algo: "grpo" as const, label: "A", config: { lr: 3e-4, beta: 0.1 } };
    expect(asTrained(run, undefined)).toBe(run);
    // lr was 1e-4 when it trained; beta was the default (absent) then.
    expect(asTrained(run, { lr: 1e-4, beta: null }).config).toEqual({ lr: 1e-4 });
    expect(run.config).toEqual({ lr: 3e-4, beta: 0.1 });
  });

  it("qualifies the verdict only by what changed the steps it reads", () => {
    const planned = own;
    const q = (
      trained = planned,
      markers: Record<string, { step: number; label: string }[]> = {},
      setupChanged = false,
    ) => verdictOnChangedRuns({ planned, trained, markers, steps: 12, setupChanged });
    const turned = planned.map((r, i) => (i === 0 ? { ...r, config: { ...r.config, beta: 0.123 } } : r));
    expect(q()).toBe(false);
    expect(q(planned.map((r) => ({ ...r, label: `${r.label}!` })))).toBe(false); // a new name
    expect(q(undefined, undefined, true)).toBe(true); // another task or model, the Pipeline's
    expect(q(planned.slice(1))).toBe(true); // a lesson run removed
    expect(q(turned)).toBe(true); // from the start (a link)
    expect(q(turned, { [planned[0].id]: [{ step: 5, label: "lr" }] })).toBe(true); // during the lesson
    expect(q(turned, { [planned[0].id]: [{ step: 13, label: "lr" }] })).toBe(false); // after its end (Stop at raised)
    expect(q(planned, { [planned[0].id]: [{ step: 12, label: "β 0.04 → 0.1" }] })).toBe(true);
    // A run put back to a checkpoint (a lost device, a rewind after an error) trains on as before.
    expect(q(planned, { [planned[0].id]: [{ step: 4, label: "GPU lost: resumed from step 0" }] })).toBe(
      false,
    );
    expect(q(planned, { [planned[0].id]: [{ step: 4, label: "back to step 0 after an error" }] })).toBe(
      false,
    );
  });
});
