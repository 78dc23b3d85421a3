/** Invariants of kl.ts and gae.ts beyond the shared vectors. */
import { describe, expect, it } from "vitest";
import {
  explainedVariance,
  gae,
  klPenalizedRewards,
  maskedWhiten,
  whitenMoments,
} from "../../src/algorithms/math/gae";
import { batchKl, exactKl, klFromLogRatio, klPerToken, sequenceKl } from "../../src/algorithms/math/kl";
import { maskFromLengths } from "../../src/algorithms/math/masked";
import { logSoftmaxRow } from "../../src/reference/softmax";
import { Rng } from "../../src/util/rng";
import { counted, expectAllClose, expectClose, padRows } from "./helpers";

/** log softmax(x / τ) of one row. */
const logSoftmax = (x: ArrayLike<number>, tau = 1) => logSoftmaxRow(x, 0, x.length, tau)!;

describe("KL estimators", () => {
  it("k1 and k3 average to the exact KL under π_θ; k2 and k3 are ≥ 0", () => {
    const rng = new Rng(1);
    for (let trial = 0; trial < 5; trial++) {
      const p = logSoftmax(rng.uniform(16, -3, 3), 0.8);
      const q = logSoftmax(rng.uniform(16, -3, 3), 0.8);
      let e1 = 0;
      let e3 = 0;
      for (let v = 0; v < 16; v++) {
        const ell = q[v] - p[v];
        e1 += Math.exp(p[v]) * klFromLogRatio(ell, "k1");
        e3 += Math.exp(p[v]) * klFromLogRatio(ell, "k3");
        expect(klFromLogRatio(ell, "k2")).toBeGreaterThanOrEqual(0);
        expect(klFromLogRatio(ell, "k3")).toBeGreaterThanOrEqual(0);
      }
      const kl = exactKl(p, q);
      expect(kl).toBeGreaterThan(0);
      expectClose(e1, kl, "E[k1]", 1e-12);
      expectClose(e3, kl, "E[k3]", 1e-12);
    }
  });

  it("exact KL: 0 for equal rows, +∞ where q = 0 < p, and p = 0 entries add nothing", () => {
    const p = logSoftmax([1, 2, Number.NEGATIVE_INFINITY]);
    expect(exactKl(p, p)).toBe(0);
    expect(exactKl(logSoftmax([1, 2]), logSoftmax([1, Number.NEGATIVE_INFINITY]))).toBe(
      Number.POSITIVE_INFINITY,
    );
    const q = logSoftmax([1, 2, 5]); // q puts mass where p has none: finite
    expect(Number.isFinite(exactKl(p, q))).toBe(true);
  });

  it("masked slots may hold NaN or ±∞: they give 0 and leave sums and means unchanged", () => {
    const logp = [
      [-1, -2, -0.5],
      [-0.3, -4],
    ];
    const ref = [
      [-1.5, -1, -0.7],
      [-0.1, -3],
    ];
    const clean = padRows(logp, 3, 0);
    const cleanRef = padRows(ref, 3, 0);
    const shape = { B: 2, T: 3, mask: clean.mask };
    for (const junk of [Number.NaN, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]) {
      const a = padRows(logp, 5, junk, [1, 2]);
      const b = padRows(ref, 5, junk, [1, 2]);
      const wide = { B: 2, T: 5, mask: a.mask };
      for (const k of ["k1", "k2", "k3"] as const) {
        const kWide = klPerToken(a.x, b.x, wide, k);
        expect(kWide.every(Number.isFinite)).toBe(true);
        expectAllClose(
          counted(kWide, a.mask),
          counted(klPerToken(clean.x, cleanRef.x, shape, k), clean.mask),
          k,
        );
        expectAllClose(sequenceKl(kWide, wide), sequenceKl(klPerToken(clean.x, cleanRef.x, shape, k), shape));
        expectClose(batchKl(a.x, b.x, wide, k), batchKl(clean.x, cleanRef.x, shape, k));
      }
    }
  });

  it("a −∞ or NaN log-prob on a counted token is a clear error naming the slot", () => {
    const shape = { B: 1, T: 2, mask: [1, 1] };
    expect(() => klPerToken([-1, Number.NEGATIVE_INFINITY], [-1, -1], shape)).toThrow(
      /logp at \(b = 0, t = 1\)/,
    );
    expect(() => klPerToken([-1, -1], [Number.NaN, -1], shape)).toThrow(/logpRef at \(b = 0, t = 0\)/);
    expect(() => klPerToken([-1, -1], [-1, -1], { B: 1, T: 2, mask: [1, 0.5] })).toThrow(/mask\[1\]/);
  });
});

describe("per-token rewards and GAE", () => {
  const rows = {
    rewards: [[0, -0.02, 0.01, 1], [0.3, -0.1], [0.5]],
    values: [[0.3, 0.2, 0.5, 0.4], [0.1, -0.2], [0.05]],
  };

  it("widening the padding (prompt slots before, NaN after) changes nothing", () => {
    const r = padRows(rows.rewards, 4);
    const v = padRows(rows.values, 4);
    const base = gae(r.x, v.x, { B: 3, T: 4, mask: r.mask }, 0.9, 0.8);
    const offsets = [2, 0, 5];
    const rw = padRows(rows.rewards, 9, Number.NaN, offsets);
    const vw = padRows(rows.values, 9, Number.POSITIVE_INFINITY, offsets);
    const wide = gae(rw.x, vw.x, { B: 3, T: 9, mask: rw.mask }, 0.9, 0.8);
    expect(wide.advantages.every(Number.isFinite) && wide.returns.every(Number.isFinite)).toBe(true);
    expectAllClose(counted(wide.advantages, rw.mask), counted(base.advantages, r.mask), "advantages");
    expectAllClose(counted(wide.returns, rw.mask), counted(base.returns, r.mask), "returns");
  });

  it("rows are independent: the batch equals its rows one at a time", () => {
    const r = padRows(rows.rewards, 4);
    const v = padRows(rows.values, 4);
    const batch = gae(r.x, v.x, { B: 3, T: 4, mask: r.mask });
    const one = rows.rewards.flatMap((rr, b) => {
      const out = gae(rr, rows.values[b], { B: 1, T: rr.length, mask: rr.map(() => 1) });
      return Array.from(out.advantages);
    });
    expectAllClose(counted(batch.advantages, r.mask), one);
  });

  it("γ = λ = 1 gives Monte Carlo returns (sum of future rewards); λ = 0 gives A = δ", () => {
    const rewards = [0.1, -0.2, 0.3, 1];
    const values = [0.5, 0.4, -0.1, 0.2];
    const shape = { B: 1, T: 4, mask: [1, 1, 1, 1] };
    const mc = gae(rewards, values, shape, 1, 1);
    expectAllClose(mc.returns, [1.2, 1.1, 1.3, 1]);
    const td = gae(rewards, values, shape, 0.9, 0);
    expectAllClose(
      td.advantages,
      rewards.map((r, t) => r + 0.9 * (t + 1 < 4 ? values[t + 1] : 0) - values[t]),
    );
  });

  it("δ_t = r_t + γV_{t+1} − V_t and A_t = δ_t + γλA_{t+1} over the counted slots (what the inspector shows)", () => {
    const r = padRows(rows.rewards, 6, Number.NaN, [1, 0, 3]);
    const v = padRows(rows.values, 6, Number.NaN, [1, 0, 3]);
    const shape = { B: 3, T: 6, mask: r.mask };
    const out = gae(r.x, v.x, shape, 0.9, 0.8);
    rows.rewards.forEach((rr, b) => {
      const vv = rows.values[b];
      const d = counted(
        out.deltas,
        r.mask.map((m, i) => (Math.floor(i / 6) === b ? m : 0)),
      );
      const a = counted(
        out.advantages,
        r.mask.map((m, i) => (Math.floor(i / 6) === b ? m : 0)),
      );
      expectAllClose(
        d,
        rr.map((x, t) => x + 0.9 * (t + 1 < rr.length ? vv[t + 1] : 0) - vv[t]),
        `row ${b} δ`,
      );
      expectAllClose(
        a,
        d.map((x, t) => x + 0.9 * 0.8 * (t + 1 < d.length ? a[t + 1] : 0)),
        `row ${b} A`,
      );
    });
    expect(out.deltas.every((x, i) => r.mask[i] === 1 || x === 0)).toBe(true);
  });

  it("the score lands on each sequence's last counted token, and rewards sum to R − β·Σk", () => {
    const logp = padRows([[-1, -2, -0.5], [-0.3]], 6, Number.NaN, [1, 4]);
    const ref = padRows([[-1.5, -1, -0.7], [-0.1]], 6, Number.NaN, [1, 4]);
    const shape = { B: 2, T: 6, mask: logp.mask };
    const out = klPenalizedRewards([2, -1], logp.x, ref.x, shape, 0.05, "k3");
    expect(out.rewards.every(Number.isFinite)).toBe(true);
    const kl = sequenceKl(out.kl, shape);
    const sums = sequenceKl(out.rewards, shape);
    expectClose(sums[0], 2 - 0.05 * kl[0]);
    expectClose(sums[1], -1 - 0.05 * kl[1]);
    expectClose(out.rewards[3], -0.05 * out.kl[3] + 2, "last token of row 0");
    expectClose(out.metrics["objective/rlhf_reward"], (sums[0] + sums[1]) / 2);
    expectClose(out.metrics["objective/kl"], (kl[0] + kl[1]) / 2);
    // TRL's objective/entropy: the counted tokens' −log π summed per row, then averaged: (3.5 + 0.3) / 2.
    expectClose(out.metrics["objective/entropy"], 1.9);
    expect(() => klPenalizedRewards([1], [0, 0], [0, 0], { B: 1, T: 2, mask: [0, 0] })).toThrow(
      /no counted token/,
    );
  });

  it("masked whitening: mean 0 and unbiased variance ≈ 1 over counted tokens, masked slots 0", () => {
    const a = padRows([[1, 2, 3], [10], [-4, 0]], 5, Number.NaN, [0, 3, 1]);
    const shape = { B: 3, T: 5, mask: a.mask };
    const w = maskedWhiten(a.x, shape);
    const c = counted(w, a.mask);
    const m = c.reduce((s, x) => s + x, 0) / c.length;
    const v = c.reduce((s, x) => s + (x - m) ** 2, 0) / (c.length - 1);
    expectClose(m, 0, "mean", 0, 1e-12);
    expectClose(v, 1, "variance", 1e-6);
    expect(w.every(Number.isFinite)).toBe(true);
    const noShift = maskedWhiten(a.x, shape, false);
    const mu = counted(a.x, a.mask).reduce((s, x) => s + x, 0) / c.length;
    expectAllClose(
      counted(noShift, a.mask),
      c.map((x) => x + mu),
    );
    // The moments it divides by: (x − mean)/scale is the whitened x.
    const mom = whitenMoments(a.x, shape);
    expectClose(mom.mean, mu);
    expectAllClose(
      c,
      counted(a.x, a.mask).map((x) => (x - mom.mean) / mom.scale),
    );
    expectAllClose(maskedWhiten([5], { B: 1, T: 1, mask: [1] }), [0]); // one token: no variance, no NaN
    expect(() => maskedWhiten([1, 2], { B: 1, T: 2, mask: [0, 0] })).toThrow(/no counted token/);
  });

  it("explained variance: 1 for a perfect value head, 0 for a constant, NaN when the returns are constant", () => {
    const G = padRows([[1, 2, 3, 4]], 6);
    const shape = { B: 1, T: 6, mask: G.mask };
    expectClose(explainedVariance(G.x, G.x, shape), 1);
    expectClose(explainedVariance(padRows([[7, 7, 7, 7]], 6).x, G.x, shape), 0, "constant V", 0, 1e-12);
    expect(explainedVariance(G.x, padRows([[2, 2, 2, 2]], 6).x, shape)).toBeNaN();
  });

  it("masks from true lengths", () => {
    expect(Array.from(maskFromLengths(2, 4, [2, 1], [1, 3]))).toEqual([0, 1, 1, 0, 0, 0, 0, 1]);
    expect(Array.from(maskFromLengths(1, 3, [2]))).toEqual([1, 1, 0]);
    expect(() => maskFromLengths(1, 3, [3], [1])).toThrow(/fit in T = 3/);
  });
});
