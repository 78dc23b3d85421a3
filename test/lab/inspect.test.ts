/**
 * The inspector-data builders (src/lab/inspect/) on hand-made inputs, against the algorithm math and numbers
 * worked out by hand: the PPO token table's ratio, clipped flag (both signs of Â) and KL (GRPO's group view:
 * inspect_groups.test.ts); DPO's implicit rewards, margin, σ(margin) and per-pair loss; the dispatcher's
 * "none" views for algorithms without an inspector and for bad data.
 */
import { describe, expect, it } from "vitest";
import { clippedObjectiveGrad } from "../../src/algorithms/math/ppo";
import type { Rollout } from "../../src/algorithms/rollout";
import type { StepResult } from "../../src/algorithms/run";
import { inspectView } from "../../src/lab/inspect/build";
import { pairInspect } from "../../src/lab/inspect/pairs";
import { tokenInspect } from "../../src/lab/inspect/tokens";
import { TEXT } from "./inspect_text";

const ln = Math.log;

describe("PPO token table", () => {
  // B = 2 completions, S = 3 slots; row 0 has 3 tokens, row 1 has 2 (slot 5 masked).
  const logpOld = [-1, -2, -0.5, -1.5, -0.7, 0];
  const ratios = [1.3, 0.7, 1.1, 0.7, 1.3, 1];
  const logpTheta = logpOld.map((l, i) => (i === 5 ? 0 : l + ln(ratios[i])));
  const advantages = [0.8, 0.8, -0.4, -1.2, -1.2, 0];
  const logpRef = [-1.2, -1.9, -0.5, -1, -0.9, 0];
  const input = {
    step: 3,
    algo: "ppo",
    S: 3,
    completionMask: [1, 1, 1, 1, 1, 0],
    prompts: [[7, 8], [9]],
    completions: [
      [0, 1, 2],
      [3, 4],
    ],
    reward: [1, -0.5],
    logpOld,
    logpRef,
    logpTheta,
    advantages,
    epsLow: 0.2,
    epsHigh: 0.2,
    klEstimator: "k1" as const,
    ratioFrom: "the last of 4 PPO epochs",
  };

  it("gives ρ = exp(log π_θ − log π_old), Â, and k1 = log π_old − log π_ref per real token", () => {
    const v = tokenInspect(input, TEXT);
    expect(v.kind).toBe("tokens");
    expect(v.batch).toBe(2);
    expect(v.completions.map((c) => c.tokens.map((t) => t.text).join(""))).toEqual(["abc", "de"]);
    expect(v.completions.map((c) => c.prompt)).toEqual(["7,8", "9"]);
    expect(v.completions.map((c) => c.reward)).toEqual([1, -0.5]);
    const rows = v.completions.flatMap((c) => c.tokens);
    expect(rows).toHaveLength(5);
    rows.forEach((t, i) => {
      expect(t.ratio).toBeCloseTo(ratios[i], 12);
      expect(t.advantage).toBe(advantages[i]);
      expect(t.logpOld).toBe(logpOld[i]);
      expect(t.logp).toBe(logpTheta[i]);
      expect(t.logpRef).toBe(logpRef[i]);
      expect(t.kl).toBeCloseTo(logpOld[i] - logpRef[i], 12);
    });
  });

  it("flags the clip exactly where the clipped surrogate binds, for both signs of Â", () => {
    const rows = tokenInspect(input, TEXT).completions.flatMap((c) => c.tokens);
    // Â > 0, ρ = 1.3 > 1 + ε: clipped. Â > 0, ρ = 0.7: not (the min keeps ρÂ). Â < 0, ρ = 1.1: not.
    // Â < 0, ρ = 0.7 < 1 − ε: clipped. Â < 0, ρ = 1.3: not (|ρ − 1| > ε, but the min keeps ρÂ).
    expect(rows.map((t) => t.clipped)).toEqual([true, false, false, true, false]);
    // Clipped ⇔ the token's policy gradient is 0.
    for (const t of rows) expect(t.clipped).toBe(clippedObjectiveGrad(t.ratio, t.advantage, 0.2, 0.2) === 0);
  });

  it("uses ε_high on the upper side and the k3 estimator when asked", () => {
    const v = tokenInspect({ ...input, epsHigh: 0.35, klEstimator: "k3" }, TEXT);
    const rows = v.completions.flatMap((c) => c.tokens);
    expect(rows[0].clipped).toBe(false); // ρ = 1.3 < 1 + 0.35
    expect(rows[3].clipped).toBe(true); // the lower side still uses ε = 0.2
    const ell = logpRef[1] - logpOld[1];
    expect(rows[1].kl).toBeCloseTo(Math.exp(ell) - 1 - ell, 12);
    expect(v.klEstimator).toBe("k3");
  });

  it("PPO: carries r_t, V_t, δ_t, A_t per token and the step's β, γ, λ and whitening; REINFORCE none", () => {
    const rewards = [-0.01, 0.02, 0.99, -0.03, -0.48, 0];
    const values = [0.4, 0.3, 0.2, -0.1, -0.2, 0];
    const deltas = [0.1, 0.2, 0.3, 0.4, 0.5, 0];
    const gaeAdv = [1, 2, 3, 4, 5, 0];
    const returns = gaeAdv.map((a, i) => a + values[i]);
    const whiten = { mean: 0.25, scale: 0.8 };
    const v = tokenInspect(
      {
        ...input,
        gae: {
          rewards,
          values,
          deltas,
          advantages: gaeAdv,
          returns,
          beta: 0.05,
          gamma: 1,
          lam: 0.95,
          whiten,
        },
      },
      TEXT,
    );
    expect(v.gae).toEqual({ beta: 0.05, gamma: 1, lam: 0.95, whiten, tokens: 5 });
    const rows = v.completions.flatMap((c) => c.tokens);
    const real = [0, 1, 2, 3, 4];
    expect(rows.map((t) => t.gae)).toEqual(
      real.map((i) => ({
        reward: rewards[i],
        value: values[i],
        delta: deltas[i],
        adv: gaeAdv[i],
        ret: returns[i],
      })),
    );
    expect(tokenInspect(input, TEXT).gae).toBeUndefined();
    expect(tokenInspect(input, TEXT).completions[0].tokens[0].gae).toBeUndefined();
    expect(() =>
      tokenInspect(
        {
          ...input,
          gae: {
            rewards,
            values: [0],
            deltas,
            advantages: gaeAdv,
            returns,
            beta: 0,
            gamma: 1,
            lam: 1,
            whiten: null,
          },
        },
        TEXT,
      ),
    ).toThrow(/gae.values has 1 entries/);
  });

  it("caps the completions and rejects arrays of the wrong size", () => {
    expect(tokenInspect(input, TEXT, 1).completions).toHaveLength(1);
    expect(() => tokenInspect({ ...input, logpTheta: [0, 0] }, TEXT)).toThrow(/logpTheta has 2 entries/);
  });
});

describe("DPO pair view", () => {
  const pairs = [
    { prompt: [1], chosen: [0, 1], rejected: [2] },
    { prompt: [2], chosen: [3], rejected: [4, 0, 1] },
  ];
  const logps = {
    chosenLogps: [-3, -1],
    rejectedLogps: [-2, -4],
    refChosenLogps: [-4, -1.5],
    refRejectedLogps: [-1.5, -3],
    chosenLengths: [2, 1],
    rejectedLengths: [1, 3],
  };
  const options = { lossType: "sigmoid" as const, beta: 0.1, labelSmoothing: 0, simpoGamma: 0.5 };

  it("implicit rewards β(log π_θ − log π_ref), margin = chosen − rejected, σ(margin), −log σ(margin)", () => {
    const v = pairInspect({ step: 2, algo: "dpo", pairs, logps, options }, TEXT);
    expect(v.totalPairs).toBe(2);
    const [p0, p1] = v.pairs;
    expect(p0.chosen.reward).toBeCloseTo(0.1 * (-3 + 4), 12);
    expect(p0.rejected.reward).toBeCloseTo(0.1 * (-2 + 1.5), 12);
    expect(p0.margin).toBeCloseTo(0.1 - -0.05, 12);
    expect(p0.margin).toBe(p0.chosen.reward - p0.rejected.reward);
    expect(p0.prob).toBeCloseTo(1 / (1 + Math.exp(-0.15)), 12);
    expect(p0.loss).toBeCloseTo(-Math.log(1 / (1 + Math.exp(-0.15))), 12);
    expect(p1.margin).toBeCloseTo(0.1 * 0.5 - 0.1 * -1, 12);
    expect([p0.chosen.text, p0.rejected.text, p1.rejected.text]).toEqual(["ab", "c", "eab"]);
    expect([p0.chosen.logpRef, p1.rejected.length]).toEqual([-4, 3]);
    expect(p0.prompt).toBe("1");
    // No flags: no pair is marked; flags mark exactly their pairs.
    expect(v.pairs.map((p) => p.flipped)).toEqual([false, false]);
    const f = pairInspect({ step: 2, algo: "dpo", pairs, logps, options, flipped: [false, true] }, TEXT);
    expect(f.pairs.map((p) => p.flipped)).toEqual([false, true]);
  });

  it("hinge loss max(0, 1 − margin), and SimPO's reference-free length-normalised rewards", () => {
    const h = pairInspect(
      { step: 1, algo: "dpo", pairs, logps, options: { ...options, lossType: "hinge" } },
      TEXT,
    );
    expect(h.pairs[0].loss).toBeCloseTo(1 - 0.15, 12);
    const s = pairInspect(
      {
        step: 1,
        algo: "dpo",
        pairs,
        logps: { ...logps, refChosenLogps: null, refRejectedLogps: null },
        options: { ...options, lossType: "simpo", beta: 2 },
      },
      TEXT,
    );
    const p = s.pairs[1];
    expect(p.chosen.logpRef).toBeNull();
    expect(p.chosen.reward).toBeCloseTo(2 * (-1 / 1), 12);
    expect(p.rejected.reward).toBeCloseTo(2 * (-4 / 3), 12);
    expect(p.loss).toBeCloseTo(Math.log(1 + Math.exp(-(p.margin - 0.5))), 12);
  });
});

describe("inspectView", () => {
  const step = (extra: Partial<StepResult>): StepResult => ({
    step: 4,
    metrics: {},
    rollout: null,
    ...extra,
  });

  it("REINFORCE's token view carries its baseline b, decay and β (Â = s − b); PPO's none", () => {
    const S = 2;
    const rollout = {
      seq: { S, completionMask: Float32Array.from([1, 1, 1, 0]) },
      prompts: [[1], [2]],
      completions: [[0, 1], [2]],
      reward: Float64Array.from([1, 0]),
      logpOld: Float64Array.from([-1, -2, -0.5, 0]),
      logpRef: Float64Array.from([-1.1, -2, -0.4, 0]),
    } as unknown as Rollout;
    const r = step({
      rollout,
      metrics: { baseline: 0.25 },
      advantages: Float64Array.from([0.75, 0.75, -0.25, 0]),
      logpTheta: Float64Array.from([-1, -2, -0.5, 0]),
      clip: { epsLow: 0.2, epsHigh: 0.2 },
    });
    const v = inspectView("reinforce", { baselineDecay: 0.9, beta: 0 }, r, TEXT);
    expect(v.kind === "tokens" && v.baseline).toEqual({ b: 0.25, decay: 0.9, beta: 0, greedy: false });
    // Â + b is the score: R here (β = 0).
    if (v.kind === "tokens" && v.baseline)
      for (const c of v.completions)
        for (const t of c.tokens) expect(t.advantage + v.baseline.b).toBe(c.reward);
    const ppo = inspectView("ppo", {}, r, TEXT);
    expect(ppo.kind === "tokens" && ppo.baseline).toBe(undefined);
  });

  it("says why there is nothing to inspect instead of throwing", () => {
    const kto = inspectView("kto", {}, step({}), TEXT);
    expect(kto).toMatchObject({ kind: "none", step: 4, algo: "kto" });
    expect(kto.kind === "none" && kto.reason).toMatch(/KTO/);
    const bad = inspectView(
      "dpo",
      {},
      step({
        preferences: {
          pairs: [{ prompt: [1], chosen: [0], rejected: [1] }],
          logps: {
            chosenLogps: [Number.NaN],
            rejectedLogps: [-1],
            refChosenLogps: [-1],
            refRejectedLogps: [-1],
          },
          options: { lossType: "sigmoid", beta: 0.1, labelSmoothing: 0, simpoGamma: 0.5 },
          flipped: [false],
        },
      }),
      TEXT,
    );
    expect(bad.kind).toBe("none");
    expect(bad.kind === "none" && bad.reason).toMatch(/step 4.*chosenLogps\[0\]/);
    expect(inspectView("ppo", {}, step({}), TEXT)).toMatchObject({ kind: "none" });
  });

  it("Safe RLHF: the group view of the scores R − λ·c the step used, with this step's λ", () => {
    const rollout = {
      prompts: [[1], [1]],
      completions: [[0], [0, 1, 2]],
      reward: Float64Array.of(0, 0),
    } as unknown as Rollout;
    const v = inspectView(
      "safe_rlhf",
      { numGenerations: 2, scaleRewards: "none" },
      step({ rollout, scores: Float64Array.of(-0.5, -1.5), metrics: { "safe/lambda": 0.5 } }),
      TEXT,
    );
    expect(v.kind).toBe("groups");
    if (v.kind !== "groups") return;
    expect(v).toMatchObject({ rule: "grpo", G: 2, scaleRewards: "none", scoreFormula: "R − λ·c" });
    expect(v.scoreNote).toMatch(/c = completion length \(tokens\), λ = 0\.5/);
    expect(v.groups[0].rows.map((r) => [r.reward, r.score, r.byScale?.none])).toEqual([
      [0, -0.5, 0.5],
      [0, -1.5, -0.5],
    ]);
    // The positive-words cost is named as such.
    const words = inspectView(
      "safe_rlhf",
      { numGenerations: 2, scaleRewards: "none", cost: "positive_words" },
      step({ rollout, scores: Float64Array.of(-0.5, -1.5), metrics: { "safe/lambda": 0.5 } }),
      TEXT,
    );
    expect(words.kind === "groups" && words.scoreNote).toMatch(
      /c = positive words in the completion, λ = 0\.5/,
    );
  });
});
