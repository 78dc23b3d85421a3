import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { type SampleOptions, sample } from "../../src/kernels/sample";
import { pcgHash, sampleRef, sampleUniform } from "../../src/reference/sample";
import { Rng } from "../../src/util/rng";
import { expectClose, kernelGpu } from "../helpers/gpu";

/** f32 log-sum-exp over ≤ 1000 terms vs float64, logits/τ of size ≤ ~30: a few ulps of the largest term. */
const LOGP_TOL = { atol: 2e-5, rtol: 2e-6 };
/** Rows whose draw lies this close (in probability) to a cumulative boundary may legitimately differ. */
const MIN_MARGIN = 1e-4;
/** Statistical tests pass when every frequency is within this many binomial standard deviations. */
const SIGMAS = 4;

interface Run {
  tokens: Int32Array;
  logp: Float32Array;
}

async function runSample(
  ctx: GpuContext,
  logits: Float32Array,
  B: number,
  V: number,
  o: SampleOptions,
  done: ArrayLike<number> = new Uint32Array(B),
): Promise<Run> {
  const tokens = ctx.tensor([B], "i32", "tokens");
  const logp = ctx.tensor([B], "f32", "logp");
  sample(
    ctx,
    tokens,
    logp,
    ctx.tensor([B, V], "f32", "logits", logits),
    ctx.tensor([B], "u32", "done", done),
    o,
  );
  return { tokens: await ctx.read(tokens), logp: await ctx.read(logp) };
}

/** Float64 log softmax(logits[b]/τ)[token[b]] over the full vocabulary (0 for finished rows). */
function logpOf(logits: Float32Array, V: number, tau: number, tokens: Int32Array, done: ArrayLike<number>) {
  return Array.from(tokens, (tok, b) => {
    if (done[b]) return 0;
    let m = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < V; i++) m = Math.max(m, logits[b * V + i] / tau);
    let s = 0;
    for (let i = 0; i < V; i++) s += Math.exp(logits[b * V + i] / tau - m);
    return logits[b * V + tok] / tau - m - Math.log(s);
  });
}

/** Rows of the same log-probabilities. */
function repeatRows(logProbs: number[], B: number): Float32Array {
  const x = new Float32Array(B * logProbs.length);
  for (let b = 0; b < B; b++) x.set(logProbs, b * logProbs.length);
  return x;
}

/**
 * Assert each token's frequency is within SIGMAS binomial standard deviations of `probs`, and that a token of
 * probability 0 is never drawn.
 */
function expectFrequencies(label: string, tokens: ArrayLike<number>, probs: number[]): void {
  const n = tokens.length;
  const counts = new Array(probs.length).fill(0);
  for (let i = 0; i < n; i++) counts[tokens[i]]++;
  const z = probs.map((p, i) => (p === 0 ? 0 : (counts[i] - n * p) / Math.sqrt(n * p * (1 - p))));
  const line = `${label}: counts ${counts.join("/")} of ${n}, z ${z.map((v) => v.toFixed(2)).join(" ")}`;
  console.log(line);
  probs.forEach((p, i) => {
    if (p === 0) expect(counts[i], `${line}: token ${i} has probability 0`).toBe(0);
    else expect(Math.abs(z[i]), line).toBeLessThanOrEqual(SIGMAS);
  });
}

/** [B, V, topK, τ, width]: odd sizes, chunks that do not divide V, width 1 and wide workgroups. */
const CASES: [number, number, number, number, number][] = [
  [5, 7, 0, 1.0, 1],
  [33, 300, 0, 0.7, 64],
  [17, 1000, 40, 1.3, 1],
  [9, 50, 5, 0.5, 256],
  [12, 97, 3, 1.0, 64],
  [4, 3, 2, 2.0, 4],
];

describe("sample vs CPU twin", () => {
  it(`draws the twin's tokens and full-vocabulary log-probs at ${CASES.length} shapes`, async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(21);
    let compared = 0;
    let total = 0;
    for (const [B, V, topK, temperature, width] of CASES) {
      // Logits on a coarse grid so that top-k meets ties; every third row is finished.
      const logits = Float32Array.from({ length: B * V }, () => rng.int(-12, 12) / 4);
      // Banned tokens (−∞ logits: probability 0, never drawn), one per row where V allows.
      if (V > 3) for (let b = 0; b < B; b++) logits[b * V + ((b * 7) % V)] = Number.NEGATIVE_INFINITY;
      const done = Uint32Array.from({ length: B }, (_, b) => (b % 3 === 2 ? 1 : 0));
      const o = { temperature, topK, seed: 1234 + V, step: B, padId: -7, width };
      const gpu = await runSample(ctx, logits, B, V, o, done);
      const ref = sampleRef(logits, B, V, { ...o, done });
      const label = `sample B=${B} V=${V} k=${topK} τ=${temperature} w=${width}`;
      for (let b = 0; b < B; b++) {
        total++;
        if (ref.margin[b] < MIN_MARGIN) continue;
        compared++;
        expect(gpu.tokens[b], `${label} row ${b} (u=${ref.u[b]}, margin ${ref.margin[b]})`).toBe(
          ref.tokens[b],
        );
      }
      expectClose(`${label} logp`, gpu.logp, logpOf(logits, V, temperature, gpu.tokens, done), LOGP_TOL);
    }
    console.log(`token equality checked on ${compared}/${total} rows (margin ≥ ${MIN_MARGIN})`);
    expect(compared).toBeGreaterThan(0.9 * total);
  });

  it("keeps exactly the k largest logits, ties broken by the lower index", async () => {
    const ctx = await kernelGpu();
    // Row: index 1, 3, 4 tie at the top; k = 2 keeps indices 1 and 3, never 4.
    const V = 6;
    const B = 512;
    const logits = repeatRows([0, 5, 1, 5, 5, -1], B);
    for (const width of [1, 4]) {
      const { tokens } = await runSample(ctx, logits, B, V, { topK: 2, seed: 9, width });
      expectFrequencies(`top-2 of ties w=${width}`, tokens, [0, 0.5, 0, 0.5, 0, 0]);
    }
  });

  it("is argmax for topK = 1 and for greedy, and sharpens as τ → 0", async () => {
    const ctx = await kernelGpu();
    const rng = new Rng(5);
    const B = 40;
    const V = 37;
    // Distinct logits 0.25 apart (shuffled), plus one row where the maximum is tied (argmax = lower index).
    const logits = new Float32Array(B * V);
    for (let b = 0; b < B; b++) {
      const perm = Array.from({ length: V }, (_, i) => i);
      for (let i = V - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [perm[i], perm[j]] = [perm[j], perm[i]];
      }
      for (let i = 0; i < V; i++) logits[b * V + i] = perm[i] / 4;
    }
    logits[5 * V + 30] = logits[5 * V + 20] = 10;
    const argmax = Array.from({ length: B }, (_, b) => {
      let best = 0;
      for (let i = 1; i < V; i++) if (logits[b * V + i] > logits[b * V + best]) best = i;
      return best;
    });
    expect(argmax[5]).toBe(20);
    for (const o of [
      { topK: 1, width: 1 },
      { topK: 1, width: 64, temperature: 3 },
      { greedy: true, width: 8, seed: 77 },
      { temperature: 0.005, width: 16, seed: 3 }, // next-best has probability ≤ e^(−0.25/0.005) = e^−50
    ]) {
      const gpu = await runSample(ctx, logits, B, V, o);
      const tau = o.temperature ?? 1;
      // A small τ splits the tied maximum of row 5 evenly between 20 and 30; argmax takes the lower index.
      if (tau < 0.1) expect([20, 30]).toContain(gpu.tokens[5]);
      const want = tau < 0.1 ? argmax.map((a, b) => (b === 5 ? gpu.tokens[5] : a)) : argmax;
      expect(Array.from(gpu.tokens), JSON.stringify(o)).toEqual(want);
      expectClose(
        `argmax logp ${JSON.stringify(o)}`,
        gpu.logp,
        logpOf(logits, V, tau, gpu.tokens, []),
        LOGP_TOL,
      );
    }
  });

  it("finished rows output the pad id and logp 0", async () => {
    const ctx = await kernelGpu();
    const done = [1, 0, 1, 1, 0];
    const gpu = await runSample(ctx, new Rng(1).uniform(5 * 11), 5, 11, { padId: 99, width: 2 }, done);
    for (const b of [0, 2, 3]) {
      expect(gpu.tokens[b]).toBe(99);
      expect(gpu.logp[b]).toBe(0);
    }
    for (const b of [1, 4]) expect(gpu.tokens[b]).toBeLessThan(11);
  });

  it("is reproducible and independent of the batch it is drawn in", async () => {
    const ctx = await kernelGpu();
    const V = 50;
    const B = 64;
    const logits = repeatRows(new Array(V).fill(0), B); // uniform: token = ⌊u·V⌋, sensitive to every draw
    const o = { seed: 42, step: 7, width: 16 };
    const a = await runSample(ctx, logits, B, V, o);
    const b = await runSample(ctx, logits, B, V, o);
    expect(Array.from(b.tokens)).toEqual(Array.from(a.tokens));
    expect(Array.from(b.logp)).toEqual(Array.from(a.logp));
    const twin = sampleRef(logits, B, V, { ...o, temperature: 1, topK: 0, padId: 0 });
    for (let r = 0; r < B; r++)
      if (twin.margin[r] >= MIN_MARGIN) expect(a.tokens[r], `row ${r}`).toBe(twin.tokens[r]);
    const head = await runSample(ctx, logits.subarray(0, 10 * V), 10, V, { ...o, width: 1 });
    expect(Array.from(head.tokens)).toEqual(Array.from(a.tokens.subarray(0, 10)));
    const nextStep = await runSample(ctx, logits, B, V, { ...o, step: 8 });
    const otherSeed = await runSample(ctx, logits, B, V, { ...o, seed: 43 });
    const same = (x: Int32Array) => x.filter((t, i) => t === a.tokens[i]).length;
    expect(same(nextStep.tokens)).toBeLessThan(B / 4); // ~B/V expected
    expect(same(otherSeed.tokens)).toBeLessThan(B / 4);
  });

  it("empirical frequencies match the probabilities (B = 4096 rows in one dispatch)", async () => {
    const ctx = await kernelGpu();
    const B = 4096;
    const logits = repeatRows([Math.log(0.5), Math.log(0.3), Math.log(0.2)], B);
    for (const seed of [0, 2024]) {
      const { tokens } = await runSample(ctx, logits, B, 3, { seed, step: 3, width: 1 });
      expectFrequencies(`p=[.5,.3,.2] seed ${seed}`, tokens, [0.5, 0.3, 0.2]);
    }
    const sharp = await runSample(ctx, logits, B, 3, { temperature: 0.5, seed: 1, width: 4 });
    expectFrequencies("τ=0.5 (p²)", sharp.tokens, [0.25 / 0.38, 0.09 / 0.38, 0.04 / 0.38]);
    const top2 = await runSample(ctx, logits, B, 3, { topK: 2, seed: 1, width: 2 });
    expectFrequencies("top-2", top2.tokens, [0.625, 0.375, 0]);
  });

  it("the twin's Math.imul PCG hash equals a BigInt u32 implementation", () => {
    const M = 0xffffffffn;
    const pcgBig = (v: number) => {
      const state = (BigInt(v) * 747796405n + 2891336453n) & M;
      const word = (((state >> ((state >> 28n) + 4n)) ^ state) * 277803737n) & M;
      return Number((word >> 22n) ^ word);
    };
    for (const v of [0, 1, 2, 12345, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff])
      expect(pcgHash(v), `pcg(${v})`).toBe(pcgBig(v));
  });

  it("the RNG is uniform over steps and seeds for a fixed row (CPU twin)", () => {
    const n = 20_000;
    const logits = Float32Array.from([Math.log(0.5), Math.log(0.3), Math.log(0.2)]);
    const base = { temperature: 1, topK: 0, padId: 0 };
    const overSteps = Int32Array.from(
      { length: n },
      (_, s) => sampleRef(logits, 1, 3, { ...base, seed: 5, step: s }).tokens[0],
    );
    expectFrequencies("twin over steps", overSteps, [0.5, 0.3, 0.2]);
    const overSeeds = Int32Array.from(
      { length: n },
      (_, s) => sampleRef(logits, 1, 3, { ...base, seed: s, step: 0 }).tokens[0],
    );
    expectFrequencies("twin over seeds", overSeeds, [0.5, 0.3, 0.2]);
    const bins = new Array(16).fill(0);
    for (let s = 0; s < n; s++) bins[Math.floor(sampleUniform(s, s >>> 3, s & 7) * 16)]++;
    expectFrequencies(
      "u in 16 bins",
      Int32Array.from(bins.flatMap((c, i) => new Array(c).fill(i))),
      new Array(16).fill(1 / 16),
    );
  });

  it("rejects bad shapes and options", async () => {
    const ctx = await kernelGpu();
    const logits = ctx.tensor([2, 5], "f32", "logits");
    const done = ctx.tensor([2], "u32", "done");
    const tokens = ctx.tensor([2], "i32", "tokens");
    const logp = ctx.tensor([2], "f32", "logp");
    expect(() => sample(ctx, tokens, logp, logits, done, { temperature: 0 })).toThrow(RangeError);
    expect(() => sample(ctx, tokens, logp, logits, done, { topK: -1 })).toThrow(/topK/);
    expect(() => sample(ctx, tokens, logp, logits, done, { width: 3 })).toThrow(/width/);
    expect(() => sample(ctx, ctx.tensor([2], "f32"), logp, logits, done)).toThrow(/tokens/);
    expect(() => sample(ctx, tokens, logp, logits, ctx.tensor([3], "u32"))).toThrow(/done/);
  });
});
