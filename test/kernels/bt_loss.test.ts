import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bradleyTerryLossAndGrad } from "../../src/algorithms/math/reward_model";
import type { GpuContext } from "../../src/gpu/context";
import { BT_TERM_COUNT, BT_TERMS, btLoss, btLossMetrics } from "../../src/kernels/bt_loss";
import { btLossRef } from "../../src/reference/bt_loss";
import { reduceRowsRef } from "../../src/reference/reduce";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";
import { vectorCase } from "../helpers/vectors";

/** f32 softplus/σ of score differences up to ~±12, vs float64. */
const PAIR_TOL = { atol: 2e-6, rtol: 2e-5 };
/** f32 sums over ≤ 65 pairs of O(1)–O(10) terms vs float64. */
const SUM_TOL = { atol: 1e-4, rtol: 2e-5 };
/** The shared test vectors' tolerance for f32 GPU paths (shared/README.md). */
const VECTOR_GPU_TOL = { atol: 0, rtol: 1e-4 };

/** A [2B, T] batch's per-position scores (std 3) and each sequence's last-token row (a random real length). */
function randomBatch(rng: Rng, B: number, T: number) {
  const rewards = Float32Array.from({ length: 2 * B * T }, () => 3 * rng.normal());
  const index = Int32Array.from({ length: 2 * B }, (_, s) => s * T + rng.int(0, T - 1));
  return { rewards, index };
}

async function runGpu(ctx: GpuContext, rewards: ArrayLike<number>, index: ArrayLike<number>, eta: number) {
  const n = rewards.length;
  const B = index.length / 2;
  const drewards = ctx.tensor([n], "f32", "drewards", new Float32Array(n).fill(7)); // must be zeroed
  const terms = ctx.tensor([BT_TERM_COUNT, B], "f32", "terms");
  const sums = ctx.tensor([BT_TERM_COUNT], "f32", "sums");
  btLoss(
    ctx,
    { drewards, terms, sums },
    ctx.tensor([n], "f32", "rewards", rewards),
    ctx.tensor([2 * B], "i32", "index", index),
    eta,
  );
  return { drewards: await ctx.read(drewards), terms: await ctx.read(terms), sums: await ctx.read(sums) };
}

describe("bt_loss vs CPU twin and bradleyTerryLossAndGrad", () => {
  for (const eta of [0, 0.01])
    it(`η = ${eta} at B = 1, 7, 64, 65 (T = 1, 5, 3, 9)`, async () => {
      const ctx = await kernelGpu();
      const rng = new Rng(7);
      for (const [B, T] of [
        [1, 1],
        [7, 5],
        [64, 3],
        [65, 9],
      ]) {
        const { rewards, index } = randomBatch(rng, B, T);
        const gpu = await runGpu(ctx, rewards, index, eta);
        const twin = btLossRef(rewards, index, eta);
        const label = `η=${eta} B=${B}`;
        expectClose(`drewards ${label}`, gpu.drewards, twin.drewards, {
          atol: PAIR_TOL.atol / B,
          rtol: 2e-5,
        });
        BT_TERMS.forEach((term, k) => {
          const rows = (a: ArrayLike<number>) => Array.from(a).slice(k * B, (k + 1) * B);
          expectClose(`${term} ${label}`, rows(gpu.terms), rows(twin.terms), PAIR_TOL);
        });
        expectClose(`sums ${label}`, gpu.sums, reduceRowsRef("sum", twin.terms, BT_TERM_COUNT, B), SUM_TOL);
        const rw = Array.from(index.slice(0, B), (i) => rewards[i]);
        const rl = Array.from(index.slice(B), (i) => rewards[i]);
        const math = bradleyTerryLossAndGrad(rw, rl, eta);
        const m = btLossMetrics(gpu.sums, B);
        expectClose(
          `loss ${label}`,
          [m.loss, m.accuracy, m.margin],
          [math.loss, math.metrics.accuracy, math.metrics.margin],
          SUM_TOL,
        );
      }
    });

  it("the shared bradley_terry vector through the GPU (f32, 1e-4 relative)", async () => {
    const ctx = await kernelGpu();
    const v = vectorCase("bradley_terry");
    const rc = v.inputs.r_chosen as number[];
    const rr = v.inputs.r_rejected as number[];
    const B = rc.length;
    const index = Array.from({ length: 2 * B }, (_, i) => i);
    const m = btLossMetrics((await runGpu(ctx, [...rc, ...rr], index, 0)).sums, B);
    const exp = v.expected as { loss: number; accuracy: number };
    expectClose("bradley_terry", [m.loss, m.accuracy], [exp.loss, exp.accuracy], VECTOR_GPU_TOL);
  });

  it("an index outside the batch or a non-finite score makes the pair invalid (0 gradient), and metrics throw", async () => {
    const ctx = await kernelGpu();
    const rewards = [0.5, 1, Number.NaN, 2, 0.25, -1];
    const index = [0, 2, 9, 1, 3, 4]; // B = 3: pairs (0,1) ok, (2,3) NaN score, (9,4) out of range
    const gpu = await runGpu(ctx, rewards, index, 0);
    const twin = btLossRef(rewards, index, 0);
    expectClose("drewards", gpu.drewards, twin.drewards, PAIR_TOL);
    expectClose("terms", gpu.terms, twin.terms, PAIR_TOL);
    expect(Array.from(gpu.terms.slice(5 * 3))).toEqual([0, 1, 1]);
    expect(() => btLossMetrics(gpu.sums, 3)).toThrow(/2 of 3 pair\(s\)/);
  });

  it("term order is the same in the shader and the twin", () => {
    const wgsl = readFileSync("src/shaders/bt_loss.wgsl", "utf8");
    const consts = [...wgsl.matchAll(/const T_(\w+) = (\d+)u;/g)].map((m) => Number(m[2]));
    expect(consts).toEqual(BT_TERMS.map((_, k) => k));
    expect(wgsl).toMatch(new RegExp(`const K = ${BT_TERMS.length}u;`));
  });

  it("rejects bad shapes and η < 0", async () => {
    const ctx = await kernelGpu();
    const t = (n: number, d: "f32" | "i32" = "f32") => ctx.tensor([n], d, "t");
    const out = { drewards: t(8), terms: t(BT_TERM_COUNT * 2) };
    expect(() => btLoss(ctx, out, t(8), t(3, "i32"))).toThrow(/2B rows/);
    expect(() => btLoss(ctx, out, t(8), t(4))).toThrow(/must be i32/);
    expect(() => btLoss(ctx, out, t(8), t(4, "i32"), -1)).toThrow(/eta/);
    expect(() => btLoss(ctx, { ...out, drewards: t(7) }, t(8), t(4, "i32"))).toThrow(/drewards/);
  });
});
