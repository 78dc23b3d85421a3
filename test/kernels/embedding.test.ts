import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { embedding, embeddingBackward } from "../../src/kernels/embedding";
import { buildScatterIndex, uploadScatterIndex } from "../../src/kernels/embedding_index";
import { embeddingBackwardRef, embeddingRef } from "../../src/reference/embedding";
import { Rng } from "../../src/util/rng";
import { dot, finiteDiffGrad, sameBits, TWIN_VS_FD } from "../helpers/finite_diff";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** Forward: one f32 addition of two table entries, exact up to one rounding. */
const FWD_TOL = { atol: 1e-7, rtol: 1e-6 };
/** Backward: sums of up to N f32 values in [−1, 1) per (id, c) plus the initial gradient (N ≤ 111 here). */
const BWD_TOL = { atol: 1e-5, rtol: 1e-5 };
/** Twin gradient vs float64 central differences (h = 1e-6): the loss is linear in the tables. */
const FD_TOL = { atol: 1e-8, rtol: 1e-7 };

interface Shape {
  B: number;
  T: number;
  V: number;
  maxT: number;
  C: number;
}

/** C = 1, N = 1, N = 37 rows (C = 100), tiny V with N = 111 rows (every token repeated ~37 times). */
const SHAPES: Shape[] = [
  { B: 1, T: 1, V: 1, maxT: 1, C: 1 },
  { B: 2, T: 5, V: 7, maxT: 8, C: 3 },
  { B: 1, T: 37, V: 50, maxT: 40, C: 100 },
  { B: 3, T: 37, V: 3, maxT: 37, C: 9 },
];

/** Bad ids: −1 (padding), the first id past the table, and a huge one. */
const badIds = (rows: number) => [-1, rows, 2 ** 31 - 1, -(2 ** 31)];

interface Case extends Shape {
  tokens: Int32Array;
  positions: Int32Array;
  wte: Float32Array;
  wpe: Float32Array;
}

/** Random tokens with repeats; left-padded positions (row b starts b steps late, pad = −1); a few bad ids. */
function makeCase(rng: Rng, s: Shape, withBad: boolean): Case {
  const N = s.B * s.T;
  const tokens = Int32Array.from({ length: N }, () => rng.int(0, s.V - 1));
  const positions = new Int32Array(N);
  for (let b = 0; b < s.B; b++)
    for (let t = 0; t < s.T; t++) positions[b * s.T + t] = Math.min(t - b, s.maxT - 1);
  if (withBad && N > 1) {
    badIds(s.V).forEach((v, i) => {
      tokens[(i * 7) % N] = v;
    });
    badIds(s.maxT).forEach((v, i) => {
      positions[(i * 5 + 1) % N] = v;
    });
  }
  return { ...s, tokens, positions, wte: rng.uniform(s.V * s.C), wpe: rng.uniform(s.maxT * s.C) };
}

const label = (s: Shape) => `B=${s.B} T=${s.T} V=${s.V} maxT=${s.maxT} C=${s.C}`;

async function runForward(ctx: GpuContext, k: Case): Promise<Float32Array> {
  const out = ctx.tensor([k.B, k.T, k.C], "f32", "out");
  embedding(
    ctx,
    out,
    ctx.tensor([k.B, k.T], "i32", "tokens", k.tokens),
    ctx.tensor([k.B, k.T], "i32", "positions", k.positions),
    ctx.tensor([k.V, k.C], "f32", "wte", k.wte),
    ctx.tensor([k.maxT, k.C], "f32", "wpe", k.wpe),
  );
  return ctx.read(out);
}

async function runBackward(
  ctx: GpuContext,
  dout: Float32Array,
  ids: Int32Array,
  rows: number,
  C: number,
  dW0: Float32Array,
): Promise<Float32Array> {
  const dW = ctx.tensor([rows, C], "f32", "dW", dW0);
  const index = uploadScatterIndex(ctx, buildScatterIndex(ids, rows), "idx");
  embeddingBackward(ctx, dW, ctx.tensor([ids.length, C], "f32", "dout", dout), index);
  return ctx.read(dW);
}

describe("buildScatterIndex", () => {
  it("groups indices by id in ascending order and drops out-of-range ids", () => {
    const idx = buildScatterIndex(Int32Array.from([3, 1, 3, -1, 5, 1, 3, 0]), 5);
    expect(Array.from(idx.rowIds)).toEqual([0, 1, 3]);
    expect(Array.from(idx.offsets)).toEqual([0, 1, 3, 6]);
    expect(Array.from(idx.positions)).toEqual([7, 1, 5, 0, 2, 6]);
    const empty = buildScatterIndex(new Int32Array(0), 4);
    expect([empty.rowIds.length, Array.from(empty.offsets), empty.positions.length]).toEqual([0, [0], 0]);
    expect(() => buildScatterIndex([0], -1)).toThrow(RangeError);
  });
});

describe("embedding forward vs CPU twin", () => {
  for (const withBad of [false, true])
    it(`at ${SHAPES.length} shapes${withBad ? ", with out-of-range ids (zeros)" : ""}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(withBad ? 52 : 51);
      for (const s of SHAPES) {
        const k = makeCase(rng, s, withBad);
        const ref = embeddingRef(k.tokens, k.positions, k.wte, k.wpe, k.V, k.maxT, k.C);
        expectClose(`embedding ${label(s)} bad=${withBad}`, await runForward(ctx, k), ref, FWD_TOL);
      }
    });
});

describe("embedding backward", () => {
  it("twin gradients match float64 finite differences of the twin forward (repeats, bad ids)", () => {
    const rng = new Rng(53);
    const k = makeCase(rng, { B: 2, T: 6, V: 4, maxT: 6, C: 2 }, true);
    const g = rng.uniform(k.B * k.T * k.C);
    const loss = (wte: ArrayLike<number>, wpe: ArrayLike<number>) =>
      dot(embeddingRef(k.tokens, k.positions, wte, wpe, k.V, k.maxT, k.C), g);
    const dwte = embeddingBackwardRef(g, k.tokens, k.V, k.C);
    const dwpe = embeddingBackwardRef(g, k.positions, k.maxT, k.C);
    expectClose(
      "twin dwte vs FD",
      dwte,
      finiteDiffGrad((w) => loss(w, k.wpe), k.wte),
      FD_TOL,
      TWIN_VS_FD,
    );
    expectClose(
      "twin dwpe vs FD",
      dwpe,
      finiteDiffGrad((w) => loss(k.wte, w), k.wpe),
      FD_TOL,
      TWIN_VS_FD,
    );
  });

  for (const withBad of [false, true])
    it(`GPU accumulates the twin's dwte and dwpe at ${SHAPES.length} shapes${withBad ? ", with bad ids" : ""}`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(withBad ? 55 : 54);
      for (const s of SHAPES) {
        const k = makeCase(rng, s, withBad);
        const dout = rng.uniform(s.B * s.T * s.C);
        const dwte0 = rng.uniform(s.V * s.C);
        const dwpe0 = rng.uniform(s.maxT * s.C);
        const dwte = await runBackward(ctx, dout, k.tokens, s.V, s.C, dwte0);
        const dwpe = await runBackward(ctx, dout, k.positions, s.maxT, s.C, dwpe0);
        const tag = `${label(s)} bad=${withBad}`;
        expectClose(`dwte ${tag}`, dwte, embeddingBackwardRef(dout, k.tokens, s.V, s.C, dwte0), BWD_TOL);
        expectClose(
          `dwpe ${tag}`,
          dwpe,
          embeddingBackwardRef(dout, k.positions, s.maxT, s.C, dwpe0),
          BWD_TOL,
        );
      }
    });

  it("is bit-identical across runs and reuses index tensors", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(56);
    const s = SHAPES[3];
    const k = makeCase(rng, s, true);
    const dout = rng.uniform(s.B * s.T * s.C);
    const zero = new Float32Array(s.V * s.C);
    const a = await runBackward(ctx, dout, k.tokens, s.V, s.C, zero);
    expect(sameBits(a, await runBackward(ctx, dout, k.tokens, s.V, s.C, zero))).toBe(true);
    const first = uploadScatterIndex(ctx, buildScatterIndex(k.tokens, s.V));
    const again = uploadScatterIndex(ctx, buildScatterIndex(k.tokens.subarray(0, 5), s.V), "x", first);
    expect(again.rowIds).toBe(first.rowIds);
    expect(again.positions).toBe(first.positions);
    // A larger index gets new tensors, and the old ones are freed (they were dropped undestroyed: 5 live
    // index buffers per run where 2 were needed, seen over 100 steps).
    const freed: string[] = [];
    for (const k of ["rowIds", "offsets", "positions"] as const) {
      const t = first[k];
      const destroy = t.destroy.bind(t);
      t.destroy = () => {
        freed.push(k);
        destroy();
      };
    }
    const more = Int32Array.from({ length: 4 * k.tokens.length }, (_, i) => i % s.V);
    const grown = uploadScatterIndex(ctx, buildScatterIndex(more, s.V), "x", first);
    expect(grown.positions).not.toBe(first.positions);
    expect(freed).toContain("positions");
    expect(freed.length, "each replaced tensor freed once").toBe(
      (["rowIds", "offsets", "positions"] as const).filter((k) => grown[k] !== first[k]).length,
    );
  });

  it("rejects bad dtypes and shapes", async () => {
    const ctx = await kernelGpu();
    const ids = ctx.tensor([2], "i32");
    const table = ctx.tensor([4, 3]);
    expect(() => embedding(ctx, ctx.tensor([6]), ctx.tensor([2]), ids, table, table)).toThrow(TypeError);
    expect(() => embedding(ctx, ctx.tensor([5]), ids, ids, table, table)).toThrow(/out/);
    expect(() => embedding(ctx, ctx.tensor([6]), ids, ids, table, ctx.tensor([4, 2]))).toThrow(/differ in C/);
    const index = uploadScatterIndex(ctx, buildScatterIndex([0, 1], 4));
    expect(() => embeddingBackward(ctx, table, ctx.tensor([2, 2]), index)).toThrow(/dout/);
    expect(() => embeddingBackward(ctx, table, ctx.tensor([2, 3]), { ...index, numUnique: 3 })).toThrow(
      /index/,
    );
  });
});
