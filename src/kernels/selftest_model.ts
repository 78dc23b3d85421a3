import { adamwRef } from "../reference/adamw";
import { type AttentionShape, attentionRef } from "../reference/attention";
import { attentionBackwardRef } from "../reference/attention_backward";
import { crossEntropyRef } from "../reference/cross_entropy";
import { embeddingBackwardRef, embeddingRef } from "../reference/embedding";
import { entropyBackwardRef, entropyRef } from "../reference/entropy";
import { gradNormRef } from "../reference/grad_norm";
import { tokenLogprobBackwardRef, tokenLogprobRef } from "../reference/token_logprob";
import type { Rng } from "../util/rng";
import { adamw, resolveAdamW } from "./adamw";
import { attentionForward } from "./attention";
import { attentionBackward } from "./attention_backward";
import type { Tolerance } from "./compare";
import { crossEntropy } from "./cross_entropy";
import { embedding, embeddingBackward } from "./embedding";
import { buildScatterIndex, uploadScatterIndex } from "./embedding_index";
import { entropy, entropyBackward } from "./entropy";
import { gradNorm, gradNormPartials } from "./grad_norm";
import { type Case, concat, leftPadMask, randomLogits, randomTargets, readAll } from "./selftest_case";
import { tokenLogprob, tokenLogprobBackward } from "./token_logprob";

// The tolerances below are those of each kernel's unit test (test/kernels/<kernel>.test.ts), never looser.
/** Cross-entropy loss up to ~30 nats (logits ~3·N(0,1)): f32 rounding of log S − (x_t − m) ≈ 30·ε. */
const CE_LOSS_TOL: Tolerance = { atol: 1e-5, rtol: 1e-6 };
/** Cross-entropy dlogits = (p − onehot)·scale, scale ≤ 1: p has ~1e-6 relative error. */
const CE_GRAD_TOL: Tolerance = { atol: 1e-6, rtol: 1e-5 };
/** Log-probs down to ~−60 (τ = 0.5, logits ~3·N(0,1)): f32 rounding of z/τ − log S ≈ 60·ε. */
const LOGP_TOL: Tolerance = { atol: 2e-5, rtol: 1e-6 };
/** Entropy ≤ log V nats, a sum of V f32 terms e^z·z with a few ulps each: ≲ 1e-6 absolute. */
const ENTROPY_TOL: Tolerance = { atol: 1e-5, rtol: 1e-5 };
/** Token log-prob dlogits = dlogp·(onehot − p)/τ, |dlogp| ≤ 2: p's ~1e-6 relative error, scaled. */
const LOGP_GRAD_TOL: Tolerance = { atol: 1e-5, rtol: 1e-5 };
/** Entropy dlogits = dH·(−p(log p + H))/τ, |dH| ≤ 2: p and log p to ~1e-6, scaled. */
const ENTROPY_GRAD_TOL: Tolerance = { atol: 1e-5, rtol: 1e-5 };
/** Attention out and P: hs-term f32 dot products, one exp and a T-term sum, inputs in [−1, 1). */
const ATTENTION_TOL: Tolerance = { atol: 2e-6, rtol: 2e-5 };
/** Attention dqkv and dS: f32 hs-term dots, a T-term row sum and a T-term gather per output, values O(1). */
const ATTENTION_BWD_TOL: Tolerance = { atol: 5e-6, rtol: 5e-5 };
/** Embedding forward: one f32 addition of two table entries, exact up to one rounding. */
const EMBEDDING_TOL: Tolerance = { atol: 1e-7, rtol: 1e-6 };
/** Embedding backward: sums of up to N f32 values in [−1, 1) per (id, c) plus the initial gradient. */
const EMBEDDING_BWD_TOL: Tolerance = { atol: 1e-5, rtol: 1e-5 };
/** Gradient norm: f32 sums of squares per thread, then trees, vs float64: ~√n·ε relative, halved by the √. */
const GRAD_NORM_TOL: Tolerance = { atol: 1e-7, rtol: 1e-5 };
/** AdamW, a few f32 steps: each rounds m, v, √v̂ and θ once (~1e-7 relative), f32 hyperparameters. */
const ADAMW_TOL: Tolerance = { atol: 1e-6, rtol: 1e-5 };

/** Attention shape of the attention cases: T = 33 rows, head size 16, batch row 0 left-padded by 3. */
const ATTN: AttentionShape = { B: 2, T: 33, C: 32, H: 2 };
const ATTN_PADS = [3, 0];
const ATTN_LABEL = "B=2 T=33 C=32 H=2, 3 padded";

/** Embedding case sizes: N = 74 ids, C = 65, positions left-padded (row 1 starts one step late, id −1). */
const EMB = { B: 2, T: 37, V: 50, maxT: 40, C: 65 };
const EMB_LABEL = "B=2 T=37 V=50 maxT=40 C=65";

function embeddingIds(rng: Rng): { tokens: Int32Array; positions: Int32Array } {
  const { B, T, V, maxT } = EMB;
  const tokens = Int32Array.from({ length: B * T }, () => rng.int(0, V - 1));
  const positions = new Int32Array(B * T);
  for (let b = 0; b < B; b++) for (let t = 0; t < T; t++) positions[b * T + t] = Math.min(t - b, maxT - 1);
  return { tokens, positions };
}

/** Cross-entropy on 37 rows of 65 logits (rows 1 and 3 without a target): its loss or its dlogits. */
function crossEntropyCase(output: "loss" | "dlogits"): Case {
  return {
    kernel: `cross_entropy (${output})`,
    shape: "[37×65]",
    tolerance: output === "loss" ? CE_LOSS_TOL : CE_GRAD_TOL,
    run(ctx, rng) {
      const x = randomLogits(rng, 37 * 65);
      const t = randomTargets(rng, 37, 65);
      const scale = 1 / 35; // 1 / (targets kept): 35 of the 37 rows have a target
      const logits = ctx.tensor([37, 65], "f32", "logits", x);
      const targets = ctx.tensor([37], "i32", "targets", t);
      const loss = ctx.tensor([37], "f32", "loss");
      const dlogits = ctx.tensor([37, 65], "f32", "dlogits");
      return {
        record: () => crossEntropy(ctx, loss, dlogits, logits, targets, { scale }),
        read: () => ctx.read(output === "loss" ? loss : dlogits),
        ref: crossEntropyRef(x, 37, 65, t, scale)[output],
      };
    },
  };
}

export const MODEL_CASES: Case[] = [
  {
    kernel: "attention (out, P)",
    shape: ATTN_LABEL,
    tolerance: ATTENTION_TOL,
    run(ctx, rng) {
      const { B, T, C, H } = ATTN;
      const qkv = rng.uniform(B * T * 3 * C);
      const mask = leftPadMask(T, ATTN_PADS);
      const out = ctx.tensor([B, T, C], "f32", "out");
      const P = ctx.tensor([B, H, T, T], "f32", "P");
      const tq = ctx.tensor([B, T, 3 * C], "f32", "qkv", qkv);
      const tm = ctx.tensor([B, T], "f32", "mask", mask);
      const ref = attentionRef(qkv, mask, ATTN);
      return {
        record: () => attentionForward(ctx, out, P, tq, tm, ATTN),
        read: () => readAll(ctx, [out, P]),
        ref: concat([ref.out, ref.P]),
      };
    },
  },
  {
    kernel: "attention_backward (dqkv, dS)",
    shape: ATTN_LABEL,
    tolerance: ATTENTION_BWD_TOL,
    run(ctx, rng) {
      const { B, T, C, H } = ATTN;
      const qkv = rng.uniform(B * T * 3 * C);
      const dout = rng.uniform(B * T * C);
      // P from the forward twin rounded to f32, so that the GPU and the twin see the same P.
      const P = Float32Array.from(attentionRef(qkv, leftPadMask(T, ATTN_PADS), ATTN).P);
      const dqkv = ctx.tensor([B, T, 3 * C], "f32", "dqkv");
      const dS = ctx.tensor([B, H, T, T], "f32", "dS");
      const tdout = ctx.tensor([B, T, C], "f32", "dout", dout);
      const tq = ctx.tensor([B, T, 3 * C], "f32", "qkv", qkv);
      const tP = ctx.tensor([B, H, T, T], "f32", "P", P);
      const ref = attentionBackwardRef(dout, qkv, P, ATTN);
      return {
        record: () => attentionBackward(ctx, dqkv, dS, tdout, tq, tP, ATTN),
        read: () => readAll(ctx, [dqkv, dS]),
        ref: concat([ref.dqkv, ref.dS]),
      };
    },
  },
  {
    kernel: "embedding",
    shape: EMB_LABEL,
    tolerance: EMBEDDING_TOL,
    run(ctx, rng) {
      const { B, T, V, maxT, C } = EMB;
      const { tokens, positions } = embeddingIds(rng);
      const wte = rng.uniform(V * C);
      const wpe = rng.uniform(maxT * C);
      const out = ctx.tensor([B, T, C], "f32", "out");
      const args = [
        ctx.tensor([B, T], "i32", "tokens", tokens),
        ctx.tensor([B, T], "i32", "positions", positions),
        ctx.tensor([V, C], "f32", "wte", wte),
        ctx.tensor([maxT, C], "f32", "wpe", wpe),
      ] as const;
      return {
        record: () => embedding(ctx, out, ...args),
        read: () => ctx.read(out),
        ref: embeddingRef(tokens, positions, wte, wpe, V, maxT, C),
      };
    },
  },
  {
    kernel: "embedding_backward (dwte)",
    shape: EMB_LABEL,
    tolerance: EMBEDDING_BWD_TOL,
    run(ctx, rng) {
      const { B, T, V, C } = EMB;
      const { tokens } = embeddingIds(rng);
      const dout = rng.uniform(B * T * C);
      const dW0 = rng.uniform(V * C);
      const dW = ctx.tensor([V, C], "f32", "dwte", dW0);
      const tdout = ctx.tensor([B * T, C], "f32", "dout", dout);
      const index = uploadScatterIndex(ctx, buildScatterIndex(tokens, V), "tokens");
      return {
        record: () => embeddingBackward(ctx, dW, tdout, index),
        read: () => ctx.read(dW),
        ref: embeddingBackwardRef(dout, tokens, V, C, dW0),
      };
    },
  },
  crossEntropyCase("loss"),
  crossEntropyCase("dlogits"),
  {
    kernel: "token_logprob (τ = 0.7)",
    shape: "[37×65]",
    tolerance: LOGP_TOL,
    run(ctx, rng) {
      const x = randomLogits(rng, 37 * 65);
      const t = randomTargets(rng, 37, 65);
      const logits = ctx.tensor([37, 65], "f32", "logits", x);
      const targets = ctx.tensor([37], "i32", "targets", t);
      const logp = ctx.tensor([37], "f32", "logp");
      return {
        record: () => tokenLogprob(ctx, logp, logits, targets, { tau: 0.7 }),
        read: () => ctx.read(logp),
        ref: tokenLogprobRef(x, 37, 65, t, null, 0.7),
      };
    },
  },
  {
    kernel: "entropy (τ = 0.7, masked)",
    shape: "[37×65]",
    tolerance: ENTROPY_TOL,
    run(ctx, rng) {
      const x = randomLogits(rng, 37 * 65);
      const m = Float32Array.from({ length: 37 }, (_, n) => (n % 3 === 1 ? 0 : 1));
      const logits = ctx.tensor([37, 65], "f32", "logits", x);
      const mask = ctx.tensor([37], "f32", "mask", m);
      const H = ctx.tensor([37], "f32", "H");
      return {
        record: () => entropy(ctx, H, logits, { tau: 0.7, mask }),
        read: () => ctx.read(H),
        ref: entropyRef(x, 37, 65, m, 0.7),
      };
    },
  },
  {
    // The RL updates' gradient through the sampled tokens' log-probs (src/algorithms/update.ts, dpo.ts,
    // seq_objective.ts): dlogits = dlogp·(onehot − p)/τ, masked rows 0.
    kernel: "token_logprob backward (τ = 0.7, masked)",
    shape: "[37×65]",
    tolerance: LOGP_GRAD_TOL,
    run(ctx, rng) {
      const x = randomLogits(rng, 37 * 65);
      const t = randomTargets(rng, 37, 65);
      const m = Float32Array.from({ length: 37 }, (_, n) => (n % 4 === 3 ? 0 : 1));
      const g = rng.uniform(37, -2, 2);
      const logits = ctx.tensor([37, 65], "f32", "logits", x);
      const targets = ctx.tensor([37], "i32", "targets", t);
      const mask = ctx.tensor([37], "f32", "mask", m);
      const dlogp = ctx.tensor([37], "f32", "dlogp", g);
      const dlogits = ctx.tensor([37, 65], "f32", "dlogits");
      return {
        record: () => tokenLogprobBackward(ctx, dlogits, logits, targets, dlogp, { tau: 0.7, mask }),
        read: () => ctx.read(dlogits),
        ref: tokenLogprobBackwardRef(x, 37, 65, t, m, g, 0.7),
      };
    },
  },
  {
    // The entropy bonus's gradient: dlogits = dH·(−p ⊙ (log p + H))/τ, masked rows 0.
    kernel: "entropy backward (τ = 0.7, masked)",
    shape: "[37×65]",
    tolerance: ENTROPY_GRAD_TOL,
    run(ctx, rng) {
      const x = randomLogits(rng, 37 * 65);
      const m = Float32Array.from({ length: 37 }, (_, n) => (n % 3 === 1 ? 0 : 1));
      const g = rng.uniform(37, -2, 2);
      const logits = ctx.tensor([37, 65], "f32", "logits", x);
      const mask = ctx.tensor([37], "f32", "mask", m);
      const dH = ctx.tensor([37], "f32", "dH", g);
      const dlogits = ctx.tensor([37, 65], "f32", "dlogits");
      return {
        record: () => entropyBackward(ctx, dlogits, logits, dH, { tau: 0.7, mask }),
        read: () => ctx.read(dlogits),
        ref: entropyBackwardRef(x, 37, 65, m, g, 0.7),
      };
    },
  },
  {
    kernel: "grad_norm",
    shape: "[5000]",
    tolerance: GRAD_NORM_TOL,
    run(ctx, rng) {
      const g = rng.uniform(5000, -2, 2); // two partial chunks of 4096
      const grads = ctx.tensor([5000], "f32", "grads", g);
      const norm = ctx.tensor([1], "f32", "norm");
      const partials = ctx.tensor([gradNormPartials(5000)], "f32", "partials");
      return {
        record: () => gradNorm(ctx, norm, partials, grads),
        read: () => ctx.read(norm),
        ref: [gradNormRef(g)],
      };
    },
  },
  {
    kernel: "adamw (3 steps; θ, m, v)",
    shape: "[1000]",
    tolerance: ADAMW_TOL,
    run(ctx, rng) {
      const n = 1000;
      const p0 = rng.uniform(n);
      const decay = Float32Array.from({ length: n }, () => (rng.float() < 0.5 ? 1 : 0));
      const params = ctx.tensor([n], "f32", "params", p0);
      const m = ctx.tensor([n], "f32", "m");
      const v = ctx.tensor([n], "f32", "v");
      const tdecay = ctx.tensor([n], "f32", "decay", decay);
      const ref = { params: Float64Array.from(p0), m: new Float64Array(n), v: new Float64Array(n) };
      // Gradients with norm ≈ 36: clipped to maxGradNorm 1, as most steps are.
      const steps = [1, 2, 3].map((step) => {
        const g = rng.uniform(n, -2, 2);
        const norm = gradNormRef(g);
        const o = { lr: 1e-2, step };
        adamwRef(ref, g, decay, Math.fround(norm), resolveAdamW(o));
        return { o, grads: ctx.tensor([n], "f32", "grads", g), norm: ctx.tensor([1], "f32", "norm", [norm]) };
      });
      return {
        record: () => {
          for (const s of steps) adamw(ctx, params, m, v, s.grads, tdecay, s.norm, s.o);
        },
        read: () => readAll(ctx, [params, m, v]),
        ref: concat([ref.params, ref.m, ref.v]),
      };
    },
  },
];
