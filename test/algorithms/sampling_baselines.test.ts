/** Invariants of rloo.ts, reinforce.ts, best_of_n.ts and safe_rlhf.ts. */
import { describe, expect, it } from "vitest";
import {
  bestOfNKlBound,
  bestOfNKlEstimate,
  bestOfNKlPerPrompt,
  bestOfNSelect,
} from "../../src/algorithms/math/best_of_n";
import { klPerToken, sequenceKl } from "../../src/algorithms/math/kl";
import {
  baselineValue,
  movingAverageBaseline,
  reinforceAdvantages,
  reinforceLossAndGrad,
  remaxAdvantages,
} from "../../src/algorithms/math/reinforce";
import { rlooAdvantages, rlooScores } from "../../src/algorithms/math/rloo";
import { lagrangeMultiplierUpdate, safeRlhfScores } from "../../src/algorithms/math/safe_rlhf";
import { Rng } from "../../src/util/rng";
import { counted, expectAllClose, expectClose, expectGradMatchesFd, padRows } from "./helpers";

describe("RLOO", () => {
  it("advantages sum to 0 per group, G/(G−1)·(R − mean) in closed form; equal groups give exactly 0", () => {
    const scores = [0.3, 0.9, 0.1, 0.4, 0.1 + 0.2, 0.1 + 0.2, 0.1 + 0.2, 0.1 + 0.2];
    const a = rlooAdvantages(scores, 4);
    const m = (0.3 + 0.9 + 0.1 + 0.4) / 4;
    expectAllClose(
      a.subarray(0, 4),
      [0.3, 0.9, 0.1, 0.4].map((r) => (4 / 3) * (r - m)),
    );
    expect(Array.from(a.subarray(4))).toEqual([0, 0, 0, 0]);
    expect(() => rlooAdvantages([1, 2], 1)).toThrow(/at least 2/);
    expect(() => rlooAdvantages([1, 2, 3], 2)).toThrow(/whole number/);
  });

  it("the KL enters the score as R − β·Σ_t k1_t, ignoring masked slots", () => {
    const logp = padRows(
      [
        [-1, -2],
        [-0.5, -0.5, -0.1],
      ],
      5,
      Number.NaN,
      [3, 0],
    );
    const ref = padRows(
      [
        [-1.2, -1.5],
        [-0.4, -0.9, -0.1],
      ],
      5,
      Number.NaN,
      [3, 0],
    );
    const shape = { B: 2, T: 5, mask: logp.mask };
    const kl = sequenceKl(klPerToken(logp.x, ref.x, shape, "k1"), shape);
    expectAllClose(kl, [0.2 - 0.5, -0.1 + 0.4 + 0]);
    expectAllClose(rlooScores([1, 2], logp.x, ref.x, shape, 0.1), [1 - 0.1 * kl[0], 2 - 0.1 * kl[1]]);
  });
});

describe("REINFORCE", () => {
  it("loss −mean_b A_b Σ_t logπ: gradient matches finite differences, masked NaN ignored", () => {
    const logp = padRows([[-1, -2, -0.5], [-0.3], [-4, -0.1]], 6, Number.NaN, [0, 5, 2]);
    const shape = { B: 3, T: 6, mask: logp.mask };
    const adv = [0.5, -1.5, 0];
    const out = reinforceLossAndGrad(logp.x, adv, shape);
    expectClose(out.loss, -(0.5 * -3.5 + -1.5 * -0.3) / 3);
    expectGradMatchesFd((x) => reinforceLossAndGrad(x, adv, shape).loss, logp.x, out.dlogp, "dlogp");
    expect(out.dlogp.every(Number.isFinite)).toBe(true);
    expectAllClose(counted(out.dlogp, logp.mask), [-0.5 / 3, -0.5 / 3, -0.5 / 3, 1.5 / 3, 0, 0]);
    expect(() =>
      reinforceLossAndGrad(padRows([[Number.NEGATIVE_INFINITY]], 1).x, [1], { B: 1, T: 1, mask: [1] }),
    ).toThrow(/logp at \(b = 0, t = 0\)/);
  });

  it("moving-average baseline: 0 on the first batch, then the bias-corrected EMA of earlier batch means", () => {
    let s = movingAverageBaseline(0.5);
    const first = reinforceAdvantages([1, 3], s);
    expect(first.baseline).toBe(0);
    expectAllClose(first.advantages, [1, 3]);
    s = first.state;
    expectClose(baselineValue(s), 2); // one batch: exactly its mean
    const second = reinforceAdvantages([4, 6], s);
    expectClose(second.baseline, 2);
    expectAllClose(second.advantages, [2, 4]);
    // m = 0.5·1 + 0.5·5 = 3, bias correction 1 − 0.25 → 4: the weights 1/3, 2/3 on the two batch means.
    expectClose(baselineValue(second.state), 2 / 3 + 10 / 3);
    expect(() => movingAverageBaseline(1)).toThrow(/decay/);
  });

  it("moving-average baseline: a decay changed between batches keeps b a weighted mean of the batch means", () => {
    // α 0 for four batches of 1s, then 0.999 (a knob turned mid-run): b stays 1 (it read 250 when the bias
    // correction used the new α on an average built under the old one), and the other way round.
    let s = movingAverageBaseline(0);
    for (let k = 0; k < 4; k++) s = reinforceAdvantages([1, 1], s).state;
    for (let k = 0; k < 4; k++) {
      const out = reinforceAdvantages([1, 1], { ...s, decay: 0.999 });
      expectClose(out.baseline, 1);
      s = out.state;
    }
    let t = movingAverageBaseline(0.999);
    for (let k = 0; k < 3; k++) t = reinforceAdvantages([0.5, 0.5], t).state;
    const out = reinforceAdvantages([0.5, 0.5], { ...t, decay: 0 });
    expectClose(out.baseline, 0.5);
    expectClose(baselineValue(out.state), 0.5);
    // A state without its weight (an older checkpoint) reads as 1 − α^k.
    expectClose(baselineValue({ decay: 0.5, ema: 3, steps: 2 }), 4);
  });

  it("ReMax subtracts each prompt's greedy score", () => {
    expectAllClose(remaxAdvantages([1, 0, 0.5, 0.7], [0.5, 1]), [0.5, -0.5, -0.5, -0.3]);
    expect(() => remaxAdvantages([1, 2, 3], [0, 0])).toThrow(/whole number/);
  });
});

describe("best-of-n", () => {
  it("selects the best of each group, first on ties", () => {
    expect(Array.from(bestOfNSelect([0.1, 0.9, 0.9, 3, 2, 1], 3))).toEqual([1, 3]);
    expect(() => bestOfNSelect([1, 2, 3], 2)).toThrow(/groups of n = 2/);
  });

  it("the estimate from samples is ≤ the bound, tends to it with distinct scores, and is exact for ties", () => {
    const rng = new Rng(21);
    const distinct = Array.from({ length: 20000 }, () => rng.normal());
    for (const n of [1, 2, 4, 16]) {
      const est = bestOfNKlEstimate(distinct, n);
      expect(est).toBeLessThanOrEqual(bestOfNKlBound(n) + 1e-12);
      expectClose(est, bestOfNKlBound(n), `n = ${n}`, 0, 5e-3);
    }
    // Right/wrong scores with P(right) = 1/4: BoN is right w.p. 1 − (3/4)^n; the KL is that of two
    // Bernoullis.
    const binary = [1, 0, 0, 0];
    for (const n of [2, 8]) {
      const p = 1 - 0.75 ** n;
      const exact = p * Math.log(p / 0.25) + (1 - p) * Math.log((1 - p) / 0.75);
      expectClose(bestOfNKlEstimate(binary, n), exact);
      expect(exact).toBeLessThan(bestOfNKlBound(n));
    }
    expect(bestOfNKlEstimate([3, 3, 3], 8)).toBe(0);
    expect(() => bestOfNKlBound(0)).toThrow(/positive integer/);
  });

  it("estimates the KL per prompt: prompts always solved or never solved move nothing", () => {
    // Half the prompts always right, half never: every group ties, best-of-n picks what π_ref would. Pooled,
    // the scores look like a 50/50 Bernoulli and the estimate would be 1 − 0.5^4 levels apart from it.
    const solvedOrNot = [1, 1, 1, 1, 0, 0, 0, 0];
    expect(bestOfNKlPerPrompt(solvedOrNot, 4)).toBe(0);
    expect(bestOfNKlEstimate(solvedOrNot, 4)).toBeGreaterThan(0.2);
    // One group is the estimate of that group; two groups average theirs.
    const a = [0.3, 0.1, 0.9, 0.5];
    const b = [1, 0, 0, 0];
    expectClose(bestOfNKlPerPrompt(a, 4), bestOfNKlEstimate(a, 4));
    expectClose(bestOfNKlPerPrompt([...a, ...b], 4), (bestOfNKlEstimate(a, 4) + bestOfNKlEstimate(b, 4)) / 2);
    // n = 4 distinct scores: p_k = (k/4)^4 − ((k−1)/4)^4, KL = Σ p_k log(4 p_k) ≈ 0.590 ≤ the bound 0.636.
    const p = [1, 2, 3, 4].map((k) => (k / 4) ** 4 - ((k - 1) / 4) ** 4);
    expectClose(
      bestOfNKlPerPrompt(a, 4),
      p.reduce((s, pk) => s + pk * Math.log(4 * pk), 0),
    );
    expect(bestOfNKlPerPrompt(a, 4)).toBeLessThan(bestOfNKlBound(4));
    expect(() => bestOfNKlPerPrompt([1, 2, 3], 2)).toThrow(/groups of n = 2/);
  });
});

describe("Safe RLHF", () => {
  it("λ rises while the mean cost exceeds the limit, falls otherwise, and never goes below 0", () => {
    expectClose(lagrangeMultiplierUpdate(1, [0.5, 1.5], 0.2, 0.1), 1 + 0.1 * (1 - 0.2));
    expectClose(lagrangeMultiplierUpdate(1, [0, 0], 0.2, 0.1), 1 - 0.02);
    expect(lagrangeMultiplierUpdate(0.01, [0], 1, 0.5)).toBe(0);
    expectAllClose(safeRlhfScores([1, 2], [0.5, -1], 2), [0, 4]);
    expect(() => lagrangeMultiplierUpdate(-1, [0], 0, 0.1)).toThrow(/lambda/);
    expect(() => lagrangeMultiplierUpdate(1, [Number.NaN], 0, 0.1)).toThrow(/costs\[0\]/);
  });
});
