/**
 * Self-test cases of generation (the rollouts of PPO and GRPO): softmax, sample's log-prob of the token it drew,
 * the KV cache writes (kv_append), one decode step of attention, the last-position gather (gather_rows) and the
 * per-step bookkeeping (gen_bookkeep). Each builds its inputs and calls its wrapper and twin as its unit test
 * (test/kernels/<kernel>.test.ts, generation_helpers.test.ts) does, at one of its shapes that does not divide the
 * workgroup size.
 */
import { decodeAttentionRef } from "../reference/decode_attention";
import { gatherRowsRef } from "../reference/gather_rows";
import { genBookkeepRef } from "../reference/gen_bookkeep";
import { kvWriteRef } from "../reference/kv_append";
import { softmaxRef } from "../reference/softmax";
import { tokenLogprobRef } from "../reference/token_logprob";
import type { Tolerance } from "./compare";
import { decodeAttention } from "./decode_attention";
import { gatherRows } from "./gather_rows";
import { genBookkeep } from "./gen_bookkeep";
import { kvAppend, kvFill } from "./kv_append";
import { sample } from "./sample";
import { type Case, concat, genStates, poisonCaches, randomLogits, readAll } from "./selftest_case";
import { softmax } from "./softmax";

// The tolerances below are those of each kernel's unit test (test/kernels/<kernel>.test.ts), never looser.
/** Softmax probabilities: exp has a few ulps of relative error, the f32 sum ~√V·ε; atol bounds tiny p. */
const PROB_TOL: Tolerance = { atol: 1e-6, rtol: 1e-5 };
/** Sample's log-prob: f32 log-sum-exp over V terms vs float64, logits/τ ≤ ~30: a few ulps of the largest. */
const SAMPLE_LOGP_TOL: Tolerance = { atol: 2e-5, rtol: 2e-6 };
/** Decode attention: hs-term f32 dots (|q·k|/√hs ≲ 10), an f32 exp/sum over ≤ 70 keys, a weighted sum. */
const DECODE_TOL: Tolerance = { atol: 1e-5, rtol: 1e-5 };
/** kv_append, gather_rows and gen_bookkeep copy values (and count steps): bit-exact. */
const EXACT: Tolerance = { atol: 0, rtol: 0 };

export const GEN_CASES: Case[] = [
  {
    kernel: "softmax (τ = 0.5)",
    shape: "[37×65]",
    tolerance: PROB_TOL,
    run(ctx, rng) {
      const x = randomLogits(rng, 37 * 65);
      const logits = ctx.tensor([37, 65], "f32", "logits", x);
      const out = ctx.tensor([37, 65], "f32", "out");
      return {
        record: () => softmax(ctx, out, logits, { tau: 0.5 }),
        read: () => ctx.read(out),
        ref: softmaxRef(x, 37, 65, false, 0.5),
      };
    },
  },
  {
    // The draw is random (a boundary case may legitimately differ from the twin's): check what is deterministic,
    // the full-vocabulary log-prob of the token the GPU drew, as the unit test does, and that the draw obeys the
    // filter: a live row's token among its 3 largest logits (ties with the third included) and never banned, a
    // finished row's the pad. The second half of the compared values is 1 per row that does.
    kernel: "sample (logp of the drawn token; top-3)",
    shape: "B=12 V=97",
    tolerance: SAMPLE_LOGP_TOL,
    run(ctx, rng) {
      const [B, V, tau] = [12, 97, 1];
      // Logits on a coarse grid so that top-k meets ties; one banned (−∞) token a row; every third row finished.
      const logits = Float32Array.from({ length: B * V }, () => rng.int(-12, 12) / 4);
      for (let b = 0; b < B; b++) logits[b * V + ((b * 7) % V)] = Number.NEGATIVE_INFINITY;
      const live = Float32Array.from({ length: B }, (_, b) => (b % 3 === 2 ? 0 : 1));
      const tokens = ctx.tensor([B], "i32", "tokens");
      const logp = ctx.tensor([B], "f32", "logp");
      const tl = ctx.tensor([B, V], "f32", "logits", logits);
      const done = ctx.tensor(
        [B],
        "u32",
        "done",
        live.map((l) => 1 - l),
      );
      const o = { temperature: tau, topK: 3, seed: 1234 + V, step: B, padId: -7 };
      // First half filled by read(), from the tokens the GPU drew; second half: every row obeys the filter.
      const ref = new Float64Array(2 * B).fill(1);
      const allowed = (b: number, t: number): boolean => {
        if (!live[b]) return t === o.padId;
        if (!(t >= 0 && t < V) || logits[b * V + t] === Number.NEGATIVE_INFINITY) return false;
        const third = Array.from(logits.subarray(b * V, (b + 1) * V)).sort((x, y) => y - x)[o.topK - 1];
        return logits[b * V + t] >= third;
      };
      return {
        record: () => sample(ctx, tokens, logp, tl, done, o),
        read: async () => {
          const drawn = await ctx.read(tokens);
          ref.set(tokenLogprobRef(logits, B, V, drawn, live, tau));
          // A live row's token outside the vocabulary has no log-prob: fail it.
          drawn.forEach((t, b) => {
            if (live[b] && !(t >= 0 && t < V)) ref[b] = Number.NaN;
          });
          const got = new Float32Array(2 * B);
          got.set(await ctx.read(logp));
          drawn.forEach((t, b) => {
            got[B + b] = allowed(b, t) ? 1 : 0;
          });
          return got;
        },
        ref,
      };
    },
  },
  {
    kernel: "kv_append (fill T=7, append L=8, 11)",
    shape: "B=3 H=2 hs=5 Tmax=11",
    tolerance: EXACT,
    run(ctx, rng) {
      const s = { B: 3, H: 2, hs: 5, Tmax: 11 };
      const [T, C] = [7, s.H * s.hs];
      const n = s.B * s.H * s.Tmax * s.hs;
      const k0 = rng.uniform(n, 50, 60); // sentinels: the copy must not touch them
      const v0 = rng.uniform(n, -60, -50);
      const kc = ctx.tensor([s.B, s.H, s.Tmax, s.hs], "f32", "kcache", k0);
      const vc = ctx.tensor([s.B, s.H, s.Tmax, s.hs], "f32", "vcache", v0);
      const kRef = Float32Array.from(k0);
      const vRef = Float32Array.from(v0);
      const prompt = rng.uniform(s.B * T * 3 * C);
      kvWriteRef(kRef, vRef, prompt, s, T, 0);
      const tp = ctx.tensor([s.B, T, 3 * C], "f32", "qkv", prompt);
      const rows = [T + 1, s.Tmax].map((L) => {
        const row = rng.uniform(s.B * 3 * C);
        kvWriteRef(kRef, vRef, row, s, 1, L - 1);
        return { L, t: ctx.tensor([s.B, 3 * C], "f32", "qkv row", row) };
      });
      return {
        record: () => {
          kvFill(ctx, kc, vc, tp);
          for (const r of rows) kvAppend(ctx, kc, vc, r.t, r.L);
        },
        read: () => readAll(ctx, [kc, vc]),
        ref: concat([kRef, vRef]),
      };
    },
  },
  {
    kernel: "decode_attention",
    shape: "B=5 H=3 hs=7 Tmax=40 L=37, left-padded",
    tolerance: DECODE_TOL,
    run(ctx, rng) {
      const [B, H, hs, Tmax, L] = [5, 3, 7, 40, 37];
      const C = H * hs;
      const q = rng.uniform(B * C, -3, 3);
      const kc = rng.uniform(B * H * Tmax * hs);
      const vc = rng.uniform(B * H * Tmax * hs);
      // Left padding: row b has pad[b] ≤ L − 1 padding positions first; positions ≥ L say "real" but are unread.
      const pad = Array.from({ length: B }, (_, b) => (b === 0 ? 0 : rng.int(0, L - 1)));
      const mask = new Float32Array(B * Tmax).fill(1);
      for (let b = 0; b < B; b++) for (let t = 0; t < pad[b]; t++) mask[b * Tmax + t] = 0;
      // Junk where nothing may be read: beyond L, and hidden (padding) slots hold NaN.
      poisonCaches([kc, vc], { B, H, Tmax, hs }, L, pad);
      const out = ctx.tensor([B, C], "f32", "out");
      const args = [
        ctx.tensor([B, C], "f32", "q", q),
        ctx.tensor([B, H, Tmax, hs], "f32", "k", kc),
        ctx.tensor([B, H, Tmax, hs], "f32", "v", vc),
        ctx.tensor([B, Tmax], "f32", "mask", mask),
      ] as const;
      return {
        record: () => decodeAttention(ctx, out, ...args, L),
        read: () => ctx.read(out),
        ref: decodeAttentionRef(q, kc, vc, mask, { B, H, hs, Tmax, L }),
      };
    },
  },
  {
    kernel: "gather_rows",
    shape: "3 of 21 rows × 37, stride 7",
    tolerance: EXACT,
    run(ctx, rng) {
      const [R, cols, rows, stride, offset] = [21, 37, 3, 7, 6];
      const x = rng.uniform(R * cols);
      const out = ctx.tensor([rows, cols], "f32", "out");
      const tx = ctx.tensor([R, cols], "f32", "x", x);
      return {
        record: () => gatherRows(ctx, out, tx, { cols, stride, offset }),
        read: () => ctx.read(out),
        ref: gatherRowsRef(x, cols, rows, stride, offset),
      };
    },
  },
  {
    kernel: "gen_bookkeep (6 steps; tokens, logp, lengths, done)",
    shape: "B=5 S=6",
    tolerance: EXACT,
    run(ctx, rng) {
      const [B, S, eos, pad] = [5, 6, 3, 0];
      const { st, g } = genStates(ctx, B, S);
      // Each step's inputs in their own tensors (uploads are not recorded work); as sample() does, finished
      // rows get PAD and logp 0.
      const steps = Array.from({ length: S }, (_, s) => {
        const token = Int32Array.from({ length: B }, (_, b) => (st.done[b] ? pad : rng.int(1, 5)));
        const logp = Float32Array.from({ length: B }, (_, b) => (st.done[b] ? 0 : -rng.float()));
        genBookkeepRef(st, token, logp, S, s, eos, pad);
        return { tok: ctx.tensor([B], "i32", "tok", token), lp: ctx.tensor([B], "f32", "lp", logp) };
      });
      return {
        record: () => {
          steps.forEach((x, s) => {
            genBookkeep(ctx, g, x.tok, x.lp, s, eos, pad);
          });
        },
        read: () => readAll(ctx, [g.outTokens, g.outLogp, g.lengths, g.done]),
        ref: concat([st.outTokens, st.outLogp, st.lengths, st.done]),
      };
    },
  },
];
