/**
 * Self-test cases of the dense layers: elementwise ops, row reductions, matmul as the forward and backward use
 * it, layer norm and GELU forward and backward, the bias gradient.
 */
import type { GpuContext } from "../gpu/context";
import { colsumRef } from "../reference/colsum";
import { elementwiseRef } from "../reference/elementwise";
import { geluBackwardRef, geluRef } from "../reference/gelu";
import { layernormBackwardRef, layernormRef } from "../reference/layernorm";
import { matmulRef } from "../reference/matmul";
import { reduceRowsRef } from "../reference/reduce";
import type { Rng } from "../util/rng";
import { colsum } from "./colsum";
import type { Tolerance } from "./compare";
import { elementwise } from "./elementwise";
import { gelu, geluBackward } from "./gelu";
import { layernorm } from "./layernorm";
import { layernormBackward } from "./layernorm_backward";
import { matmul } from "./matmul";
import { reduceRows } from "./reduce";
import { type Case, concat, readAll } from "./selftest_case";

/** f32 inputs with float64 twins: sums and products carry ~1e-6 relative rounding per term. */
const ELEMENTWISE_TOL: Tolerance = { atol: 1e-6, rtol: 1e-5 };
/** A sum of C terms in f32 (tree order) vs float64: error grows ~√C·ε·Σ|x|. */
const REDUCE_TOL: Tolerance = { atol: 1e-4, rtol: 1e-5 };
/** K-term dot products in f32: ~K·ε relative to Σ|a·b|, so an absolute term for near-zero outputs. */
const MATMUL_TOL: Tolerance = { atol: 1e-4, rtol: 1e-4 };
// The tolerances below are those of each kernel's unit test (test/kernels/<kernel>.test.ts), never looser.
/** Layer norm out: C-term f32 sums for mean/variance, then one product chain per element (~1e-6 relative). */
const LAYERNORM_TOL: Tolerance = { atol: 1e-5, rtol: 1e-5 };
/** Layer norm dx: two C-term row means and a few products, amplified by rstd (≈ 1.7 for these inputs). */
const LAYERNORM_DX_TOL: Tolerance = { atol: 2e-5, rtol: 1e-4 };
/** Layer norm dweight/dbias (and colsum's dbias): N-term f32 column sums of O(1) values, ~N·ε absolute. */
const COLUMN_SUM_TOL: Tolerance = { atol: 1e-4, rtol: 1e-5 };
/** GELU forward and backward: f32 polynomial, tanh (a few ulps) and products; atol for outputs near 0. */
const GELU_TOL: Tolerance = { atol: 1e-6, rtol: 1e-5 };

/** Layer norm inputs: x with a non-zero mean and spread, weights near 1, small biases (as its unit test). */
function layernormInputs(ctx: GpuContext, rng: Rng, N: number, C: number) {
  const x = rng.uniform(N * C, -1, 3);
  const w = rng.uniform(C, 0.5, 1.5);
  const b = rng.uniform(C, -0.5, 0.5);
  return {
    x,
    w,
    b,
    tx: ctx.tensor([N, C], "f32", "x", x),
    tw: ctx.tensor([C], "f32", "w", w),
    tb: ctx.tensor([C], "f32", "b", b),
  };
}

/** A row reduction of rows × cols uniform values (sum: a few wide rows; max: many narrow ones). */
function reduceCase(op: "sum" | "max", rows: number, cols: number): Case {
  return {
    kernel: `reduce_rows (${op})`,
    shape: `[${rows}×${cols}]`,
    tolerance: REDUCE_TOL,
    run(ctx, rng) {
      const x = rng.uniform(rows * cols);
      const tx = ctx.tensor([rows, cols], "f32", "x", x);
      const out = ctx.tensor([rows], "f32", "out");
      return {
        record: () => reduceRows(ctx, op, out, tx),
        read: () => ctx.read(out),
        ref: reduceRowsRef(op, x, rows, cols),
      };
    },
  };
}

export const LAYER_CASES: Case[] = [
  {
    kernel: "elementwise (axpy)",
    shape: "[1000]",
    tolerance: ELEMENTWISE_TOL,
    run(ctx, rng) {
      const a = rng.uniform(1000);
      const b = rng.uniform(1000);
      const ta = ctx.tensor([1000], "f32", "a", a);
      const tb = ctx.tensor([1000], "f32", "b", b);
      const out = ctx.tensor([1000], "f32", "out");
      return {
        record: () => elementwise(ctx, "axpy", out, ta, tb, 0.5),
        read: () => ctx.read(out),
        ref: elementwiseRef("axpy", a, b, 0.5),
      };
    },
  },
  reduceCase("sum", 4, 300),
  reduceCase("max", 70000, 3),
  {
    kernel: "matmul (A·B)",
    shape: "M=33 N=17 K=45",
    tolerance: MATMUL_TOL,
    run(ctx, rng) {
      const s = { batch: 1, M: 33, N: 17, K: 45 };
      const a = rng.uniform(33 * 45);
      const b = rng.uniform(45 * 17);
      const ta = ctx.tensor([33, 45], "f32", "A", a);
      const tb = ctx.tensor([45, 17], "f32", "B", b);
      const c = ctx.tensor([33, 17], "f32", "C");
      return { record: () => matmul(ctx, c, ta, tb, s), read: () => ctx.read(c), ref: matmulRef(a, b, s) };
    },
  },
  {
    kernel: "matmul (Aᵀ·Bᵀ)",
    shape: "batch=2 M=20 N=31 K=7",
    tolerance: MATMUL_TOL,
    run(ctx, rng) {
      const s = { batch: 2, M: 20, N: 31, K: 7, transA: true, transB: true };
      const a = rng.uniform(2 * 20 * 7);
      const b = rng.uniform(2 * 7 * 31);
      const ta = ctx.tensor([2, 7, 20], "f32", "A", a);
      const tb = ctx.tensor([2, 31, 7], "f32", "B", b);
      const c = ctx.tensor([2, 20, 31], "f32", "C");
      return { record: () => matmul(ctx, c, ta, tb, s), read: () => ctx.read(c), ref: matmulRef(a, b, s) };
    },
  },
  {
    kernel: "layernorm (out)",
    shape: "[37×65]",
    tolerance: LAYERNORM_TOL,
    run(ctx, rng) {
      const { x, w, b, tx, tw, tb } = layernormInputs(ctx, rng, 37, 65);
      const out = ctx.tensor([37, 65], "f32", "out");
      const mean = ctx.tensor([37], "f32", "mean");
      const rstd = ctx.tensor([37], "f32", "rstd");
      const ref = layernormRef(x, w, b, 37, 65);
      return {
        record: () => layernorm(ctx, out, mean, rstd, tx, tw, tb),
        read: () => readAll(ctx, [out, mean, rstd]),
        ref: concat([ref.out, ref.mean, ref.rstd]),
      };
    },
  },
  {
    kernel: "layernorm_backward (dx)",
    shape: "[37×65]",
    tolerance: LAYERNORM_DX_TOL,
    run(ctx, rng) {
      const { x, w, b, tx, tw } = layernormInputs(ctx, rng, 37, 65);
      const dout = rng.uniform(37 * 65);
      const f = layernormRef(x, w, b, 37, 65);
      const mean = Float32Array.from(f.mean);
      const rstd = Float32Array.from(f.rstd);
      const dx = ctx.tensor([37, 65], "f32", "dx");
      const dw = ctx.tensor([65], "f32", "dw");
      const db = ctx.tensor([65], "f32", "db");
      const args = [
        ctx.tensor([37, 65], "f32", "dout", dout),
        tx,
        tw,
        ctx.tensor([37], "f32", "mean", mean),
        ctx.tensor([37], "f32", "rstd", rstd),
      ] as const;
      return {
        record: () => layernormBackward(ctx, dx, dw, db, ...args),
        read: () => ctx.read(dx),
        ref: layernormBackwardRef(dout, x, w, mean, rstd, 37, 65).dx,
      };
    },
  },
  {
    kernel: "layernorm_param_grad (dweight, dbias)",
    shape: "[37×65]",
    tolerance: COLUMN_SUM_TOL,
    run(ctx, rng) {
      const { x, w, b, tx, tw } = layernormInputs(ctx, rng, 37, 65);
      const dout = rng.uniform(37 * 65);
      const f = layernormRef(x, w, b, 37, 65);
      const mean = Float32Array.from(f.mean);
      const rstd = Float32Array.from(f.rstd);
      // dweight and dbias accumulate: start them from non-zero gradients.
      const dw0 = rng.uniform(65);
      const db0 = rng.uniform(65);
      const dx = ctx.tensor([37, 65], "f32", "dx");
      const dw = ctx.tensor([65], "f32", "dw", dw0);
      const db = ctx.tensor([65], "f32", "db", db0);
      const args = [
        ctx.tensor([37, 65], "f32", "dout", dout),
        tx,
        tw,
        ctx.tensor([37], "f32", "mean", mean),
        ctx.tensor([37], "f32", "rstd", rstd),
      ] as const;
      const ref = layernormBackwardRef(dout, x, w, mean, rstd, 37, 65);
      return {
        record: () => layernormBackward(ctx, dx, dw, db, ...args),
        read: () => readAll(ctx, [dw, db]),
        ref: concat([ref.dweight.map((v, i) => v + dw0[i]), ref.dbias.map((v, i) => v + db0[i])]),
      };
    },
  },
  {
    kernel: "gelu",
    shape: "[37×130]",
    tolerance: GELU_TOL,
    run(ctx, rng) {
      const x = rng.uniform(37 * 130, -6, 6);
      const tx = ctx.tensor([37, 130], "f32", "x", x);
      const out = ctx.tensor([37, 130], "f32", "out");
      return { record: () => gelu(ctx, out, tx), read: () => ctx.read(out), ref: geluRef(x) };
    },
  },
  {
    kernel: "gelu_backward",
    shape: "[37×130]",
    tolerance: GELU_TOL,
    run(ctx, rng) {
      const x = rng.uniform(37 * 130, -6, 6);
      const dout = rng.uniform(37 * 130);
      const tx = ctx.tensor([37, 130], "f32", "x", x);
      const tdout = ctx.tensor([37, 130], "f32", "dout", dout);
      const dx = ctx.tensor([37, 130], "f32", "dx");
      return {
        record: () => geluBackward(ctx, dx, tdout, tx),
        read: () => ctx.read(dx),
        ref: geluBackwardRef(dout, x),
      };
    },
  },
  {
    kernel: "matmul (x·Wᵀ + b)",
    shape: "M=37 N=65 K=13",
    tolerance: MATMUL_TOL,
    run(ctx, rng) {
      // A linear layer's forward pass, as src/model/forward.ts calls it: W is [out, in], the bias is fused.
      const s = { batch: 1, M: 37, N: 65, K: 13, transB: true };
      const x = rng.uniform(37 * 13);
      const w = rng.uniform(65 * 13);
      const bias = rng.uniform(65);
      const tx = ctx.tensor([37, 13], "f32", "x", x);
      const tw = ctx.tensor([65, 13], "f32", "W", w);
      const tbias = ctx.tensor([65], "f32", "b", bias);
      const y = ctx.tensor([37, 65], "f32", "y");
      return {
        record: () => matmul(ctx, y, tx, tw, { ...s, bias: tbias }),
        read: () => ctx.read(y),
        ref: matmulRef(x, w, s, null, bias),
      };
    },
  },
  {
    kernel: "matmul (dW += dyᵀ·x)",
    shape: "M=65 N=13 K=37",
    tolerance: MATMUL_TOL,
    run(ctx, rng) {
      // A linear layer's weight gradient, as src/model/backward.ts calls it: accumulated into dW.
      const s = { batch: 1, M: 65, N: 13, K: 37, transA: true, accumulate: true };
      const dy = rng.uniform(37 * 65);
      const x = rng.uniform(37 * 13);
      const dW0 = rng.uniform(65 * 13);
      const tdy = ctx.tensor([37, 65], "f32", "dy", dy);
      const tx = ctx.tensor([37, 13], "f32", "x", x);
      const dW = ctx.tensor([65, 13], "f32", "dW", dW0);
      return {
        record: () => matmul(ctx, dW, tdy, tx, s),
        read: () => ctx.read(dW),
        ref: matmulRef(dy, x, s, dW0),
      };
    },
  },
  {
    kernel: "colsum (dbias)",
    shape: "[37×65]",
    tolerance: COLUMN_SUM_TOL,
    run(ctx, rng) {
      const dout = rng.uniform(37 * 65);
      const db0 = rng.uniform(65);
      const tdout = ctx.tensor([37, 65], "f32", "dout", dout);
      const db = ctx.tensor([65], "f32", "db", db0);
      return {
        record: () => colsum(ctx, db, tdout),
        read: () => ctx.read(db),
        ref: colsumRef(dout, 37, 65, db0),
      };
    },
  },
];
