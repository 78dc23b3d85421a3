/**
 * Self-test cases of the RL losses: policy (PPO/GRPO), value, DPO and the reward model's Bradley–Terry loss
 * (each one's metric terms and its gradient output), the exact KL and its backward, sequence log-probs and their
 * backward. Generation's kernels are in selftest_gen.ts. Each builds its inputs and calls its wrapper and twin as
 * its unit test (test/kernels/<kernel>.test.ts) does, at one of its shapes that does not divide the workgroup
 * size.
 */

import { aggregationWeights } from "../algorithms/math/grpo";
import { maskCount, maskFromLengths, rowCounts } from "../algorithms/math/masked";
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { btLossRef } from "../reference/bt_loss";
import { dpoLossRef } from "../reference/dpo_loss";
import { exactKlBackwardRef, exactKlRef } from "../reference/exact_kl";
import { policyLossRef } from "../reference/policy_loss";
import { sequenceLogprobBackwardRef, sequenceLogprobRef } from "../reference/sequence_logprob";
import { valueLossRef } from "../reference/value_loss";
import type { Rng } from "../util/rng";
import { BT_TERM_COUNT, btLoss } from "./bt_loss";
import type { Tolerance } from "./compare";
import { DPO_TERM_COUNT, dpoLoss } from "./dpo_loss";
import { exactKl, exactKlBackward } from "./exact_kl";
import { POLICY_TERM_COUNT, policyLoss } from "./policy_loss";
import { type Case, randomLogits } from "./selftest_case";
import { sequenceLogprob, sequenceLogprobBackward } from "./sequence_logprob";
import { VALUE_TERM_COUNT, valueLoss } from "./value_loss";

// The tolerances below are those of each kernel's unit test (test/kernels/<kernel>.test.ts), never looser.
/** Policy loss terms and dlogp: ρ = exp(Δ) with Δ up to ~2 has a few ulp of error; k3 uses a Taylor polynomial. */
const POLICY_TOL: Tolerance = { atol: 1e-7, rtol: 2e-5 };
/** Value loss terms and dvalues: a few roundings of O(1) values (squares up to ~20). */
const VALUE_TOL: Tolerance = { atol: 1e-6, rtol: 1e-5 };
/** DPO terms: f32 log-ratio differences of sequence log-probs down to −40 (ulp ≈ 4e-6), through β and σ. */
const DPO_TOL: Tolerance = { atol: 2e-5, rtol: 2e-5 };
/** Bradley–Terry terms: f32 softplus/σ of score differences up to ~±12, vs float64. */
const BT_TOL: Tolerance = { atol: 2e-6, rtol: 2e-5 };
/** Exact KL: Σ p(log p − log q) with |log p − log q| up to ~60 (τ = 0.5, unrelated logits): ~60·ε per term. */
const KL_TOL: Tolerance = { atol: 2e-5, rtol: 1e-5 };
/** KL backward: dkl·p((log p − log q) − KL)/τ, |dkl| ≲ 3: p ~1e-6 relative error, the bracket ~60·ε absolute. */
const KL_GRAD_TOL: Tolerance = { atol: 2e-5, rtol: 1e-5 };
/** Sequence sums of ≤ 13 f32 log-probs in (−5, 0) vs float64: ≲ 13·ulp(65) worst, far less typical. */
const SEQ_SUM_TOL: Tolerance = { atol: 2e-5, rtol: 1e-6 };
/** Sequence log-prob backward: a copy, or one f32 division (mean). */
const SEQ_GRAD_TOL: Tolerance = { atol: 1e-7, rtol: 1e-6 };

/** What a loss case's setup records, and the twin's gradient and metric terms. */
interface LossRun {
  record: () => void;
  grad: Tensor;
  terms: Tensor;
  ref: { grad: ArrayLike<number>; terms: ArrayLike<number> };
}

/** Two cases of a loss kernel from one setup: its metric terms, and its gradient output (`gradName`). */
function lossCases(
  kernel: string,
  shape: string,
  tols: { terms: Tolerance; grad: Tolerance },
  gradName: string,
  setup: (ctx: GpuContext, rng: Rng) => LossRun,
): Case[] {
  return (["terms", "grad"] as const).map((out) => ({
    kernel: `${kernel} (${out === "grad" ? gradName : "terms"})`,
    shape,
    tolerance: tols[out],
    run(ctx, rng) {
      const r = setup(ctx, rng);
      return { record: r.record, read: () => ctx.read(r[out]), ref: r.ref[out] };
    },
  }));
}

/** Masked batch [B, T] as the loss tests draw it: prompt offsets 0–2 and completion lengths ≥ 1. */
function lossMask(rng: Rng, B: number, T: number): Float32Array {
  const offsets = Array.from({ length: B }, () => rng.int(0, Math.min(2, T - 1)));
  const lengths = offsets.map((o) => rng.int(1, T - o));
  return Float32Array.from(maskFromLengths(B, T, lengths, offsets));
}

/** Mask [N] with every third row (from row 1) masked out, as the vocab-row tests' stripedMask. */
function stripedMask(N: number): Float32Array {
  return Float32Array.from({ length: N }, (_, n) => (n % 3 === 1 ? 0 : 1));
}

/** f32 tensors [n] of the given arrays. */
function uploader(ctx: GpuContext) {
  return (name: string, a: ArrayLike<number>) => ctx.tensor([a.length], "f32", name, a);
}

/** Policy loss, GRPO as trained: per-token `grpo` weights, clip-higher (ε 0.2 / 0.28), k3 term β = 0.04. */
const POLICY_CASES = lossCases(
  "policy_loss",
  "[7×13], GRPO β=0.04",
  { terms: POLICY_TOL, grad: POLICY_TOL },
  "dlogp",
  (ctx, rng) => {
    const [B, T] = [7, 13];
    const N = B * T;
    const mask = lossMask(rng, B, T);
    const logp = rng.uniform(N, -5, 0);
    const logpOld = logp.map((v) => v + 0.4 * rng.normal());
    const logpRef = logp.map((v) => v + 0.6 * rng.normal());
    const seqAdv = Array.from({ length: B }, () => rng.normal());
    const advantages = Float32Array.from({ length: N }, (_, i) => seqAdv[Math.floor(i / T)]);
    const weights = Float32Array.from(aggregationWeights({ B, T, mask }, "grpo", T));
    const t = uploader(ctx);
    const dlogp = ctx.tensor([N], "f32", "dlogp");
    const terms = ctx.tensor([POLICY_TERM_COUNT, N], "f32", "terms");
    const inputs = {
      logp: t("logp", logp),
      logpOld: t("logpOld", logpOld),
      logpRef: t("logpRef", logpRef),
      advantages: t("adv", advantages),
      weights: t("w", weights),
      mask: t("mask", mask),
    };
    const o = { epsilon: 0.2, epsilonHigh: 0.28, beta: 0.04 };
    const x = { logp, logpOld, logpRef, advantages, weights, mask };
    const ref = policyLossRef(x, { epsLow: 0.2, epsHigh: 0.28, beta: 0.04 });
    return {
      record: () => policyLoss(ctx, { dlogp, terms }, inputs, o),
      grad: dlogp,
      terms,
      ref: { grad: ref.dlogp, terms: ref.terms },
    };
  },
);

/** PPO's value loss: masked mean (w = 1/n), ε_v = 0.2, V − V_old ~ 0.3·N(0, 1) so that some terms clip. */
const VALUE_CASES = lossCases(
  "value_loss",
  "[7×13], ε_v=0.2",
  { terms: VALUE_TOL, grad: VALUE_TOL },
  "dvalues",
  (ctx, rng) => {
    const [B, T] = [7, 13];
    const N = B * T;
    const mask = lossMask(rng, B, T);
    const values = rng.uniform(N, -2, 2);
    const valuesOld = values.map((v) => v + 0.3 * rng.normal());
    const returns = values.map((v) => v + rng.normal());
    const weights = 1 / maskCount(mask);
    const t = uploader(ctx);
    const dvalues = ctx.tensor([N], "f32", "dvalues");
    const terms = ctx.tensor([VALUE_TERM_COUNT, N], "f32", "terms");
    const inputs = {
      values: t("values", values),
      valuesOld: t("valuesOld", valuesOld),
      returns: t("returns", returns),
      weights,
      mask: t("mask", mask),
    };
    const ref = valueLossRef({ values, valuesOld, returns, weights, mask }, 0.2, 1);
    return {
      record: () => valueLoss(ctx, { dvalues, terms }, inputs, { epsilonV: 0.2 }),
      grad: dvalues,
      terms,
      ref: { grad: ref.dvalues, terms: ref.terms },
    };
  },
);

/** DPO (sigmoid) on 7 pairs: sequence log-probs in (−40, −1), reference within ~±3 nats, lengths 1..30. */
const DPO_CASES = lossCases(
  "dpo_loss",
  "B=7 pairs, sigmoid",
  { terms: DPO_TOL, grad: { atol: DPO_TOL.atol / 7, rtol: DPO_TOL.rtol } }, // grad: the 1/B of the mean
  "grad",
  (ctx, rng) => {
    const B = 7;
    const logps = rng.uniform(2 * B, -40, -1);
    const refLogps = logps.map((v) => v + 3 * rng.normal());
    const lengths = Float32Array.from({ length: 2 * B }, () => rng.int(1, 30));
    const t = uploader(ctx);
    const grad = ctx.tensor([2 * B], "f32", "grad");
    const terms = ctx.tensor([DPO_TERM_COUNT, B], "f32", "terms");
    const inputs = { logps: t("logps", logps), refLogps: t("ref", refLogps), lengths: t("len", lengths) };
    const opts = { lossType: "sigmoid" } as const;
    const ref = dpoLossRef({ logps, refLogps, lengths }, opts);
    return { record: () => dpoLoss(ctx, { grad, terms }, inputs, opts), grad, terms, ref };
  },
);

/** The reward model's Bradley–Terry loss, η = 0.01, on 7 pairs of 5 positions (scores std 3); drewards zeroed. */
const BT_CASES = lossCases(
  "bt_loss",
  "B=7 pairs, T=5, η=0.01",
  { terms: BT_TOL, grad: { atol: BT_TOL.atol / 7, rtol: BT_TOL.rtol } }, // grad: the 1/B of the mean
  "drewards",
  (ctx, rng) => {
    const [B, T] = [7, 5];
    const rewards = Float32Array.from({ length: 2 * B * T }, () => 3 * rng.normal());
    const index = Int32Array.from({ length: 2 * B }, (_, s) => s * T + rng.int(0, T - 1));
    const n = rewards.length;
    const drewards = ctx.tensor([n], "f32", "drewards", new Float32Array(n).fill(7)); // must be zeroed
    const terms = ctx.tensor([BT_TERM_COUNT, B], "f32", "terms");
    const tr = ctx.tensor([n], "f32", "rewards", rewards);
    const ti = ctx.tensor([2 * B], "i32", "index", index);
    const ref = btLossRef(rewards, index, 0.01);
    return {
      record: () => btLoss(ctx, { drewards, terms }, tr, ti, 0.01),
      grad: drewards,
      terms,
      ref: { grad: ref.drewards, terms: ref.terms },
    };
  },
);

/** Exact KL on 37 rows of 65 logits at τ = 0.5, the reference unrelated (spread 3), every third row masked. */
function exactKlCase(output: "kl" | "dpolicy"): Case {
  return {
    kernel: output === "kl" ? "exact_kl (τ = 0.5, masked)" : "exact_kl_backward (dpolicy)",
    shape: "[37×65]",
    tolerance: output === "kl" ? KL_TOL : KL_GRAD_TOL,
    run(ctx, rng) {
      const [N, V, tau] = [37, 65, 0.5];
      const x = randomLogits(rng, N * V);
      const y = x.map((v) => v + 3 * rng.normal());
      const m = stripedMask(N);
      const dkl = randomLogits(rng, N, 1);
      const policy = ctx.tensor([N, V], "f32", "policy", x);
      const reference = ctx.tensor([N, V], "f32", "reference", y);
      const mask = ctx.tensor([N], "f32", "mask", m);
      const opts = { tau, mask };
      if (output === "kl") {
        const kl = ctx.tensor([N], "f32", "kl");
        return {
          record: () => exactKl(ctx, kl, policy, reference, opts),
          read: () => ctx.read(kl),
          ref: exactKlRef(x, y, N, V, m, tau),
        };
      }
      const dpolicy = ctx.tensor([N, V], "f32", "dpolicy", randomLogits(rng, N * V, 1)); // overwritten
      const dk = ctx.tensor([N], "f32", "dkl", dkl);
      return {
        record: () => exactKlBackward(ctx, dpolicy, policy, reference, dk, opts),
        read: () => ctx.read(dpolicy),
        ref: exactKlBackwardRef(x, y, N, V, m, dkl, tau),
      };
    },
  };
}

/**
 * Sequence log-probs [7×13] (DPO's sums; some rows empty, NaN/±∞ in masked slots), or their backward in mean
 * mode (g NaN on empty rows, never read there; dlogp pre-filled, overwritten).
 */
function sequenceLogprobCase(output: "out" | "dlogp"): Case {
  return {
    kernel: output === "out" ? "sequence_logprob (sum)" : "sequence_logprob_backward (mean)",
    shape: "[7×13]",
    tolerance: output === "out" ? SEQ_SUM_TOL : SEQ_GRAD_TOL,
    run(ctx, rng) {
      const [R, T] = [7, 13];
      const offsets = Array.from({ length: R }, () => rng.int(0, 2));
      const lengths = offsets.map((o) => rng.int(0, T - o));
      const mask = Float32Array.from(maskFromLengths(R, T, lengths, offsets));
      const junk = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
      const logp = rng.uniform(R * T, -5, 0).map((v, i) => (mask[i] === 0 ? junk[i % 3] : v));
      const tm = ctx.tensor([R, T], "f32", "mask", mask);
      if (output === "out") {
        const out = ctx.tensor([R], "f32", "out");
        const len = ctx.tensor([R], "f32", "lengths");
        const tl = ctx.tensor([R, T], "f32", "logp", logp);
        return {
          record: () => sequenceLogprob(ctx, out, len, tl, tm),
          read: () => ctx.read(out),
          ref: sequenceLogprobRef(logp, mask, R, T).out,
        };
      }
      const g = rng.uniform(R, -1, 1).map((v, r) => (lengths[r] === 0 ? Number.NaN : v));
      const dlogp = ctx.tensor([R, T], "f32", "dlogp", new Float32Array(R * T).fill(7));
      const tg = ctx.tensor([R], "f32", "g", g);
      const len = ctx.tensor([R], "f32", "lengths", rowCounts({ B: R, T, mask }));
      return {
        record: () => sequenceLogprobBackward(ctx, dlogp, tg, tm, { mean: true, lengths: len }),
        read: () => ctx.read(dlogp),
        ref: sequenceLogprobBackwardRef(g, mask, R, T, true),
      };
    },
  };
}

export const RL_LOSS_CASES: Case[] = [
  ...POLICY_CASES,
  ...VALUE_CASES,
  ...DPO_CASES,
  ...BT_CASES,
  exactKlCase("kl"),
  exactKlCase("dpolicy"),
  sequenceLogprobCase("out"),
  sequenceLogprobCase("dlogp"),
];
