import { describe, expect, it } from "vitest";
import type { MetricPoint } from "../../lab/protocol";
import {
  emaSmooth,
  markerRows,
  markerX,
  markerXs,
  metricSeries,
  nearest,
  niceDomain,
  niceTicksWithin,
  spans,
  xExtent,
  xOf,
  yAxisOf,
} from "./series";

const point = (step: number, metrics: Record<string, number>): MetricPoint => ({
  step,
  samples: step * 8,
  tokens: step * 100,
  metrics,
});

describe("chart series", () => {
  it("x values per axis", () => {
    const p = point(3, { "objective/kl": 0.5, "objective/kl_k3": 0.25 });
    expect(xOf(p, "step", "objective/kl")).toBe(3);
    expect(xOf(p, "samples", "objective/kl")).toBe(24);
    expect(xOf(p, "tokens", "objective/kl")).toBe(300);
    expect(xOf(p, "kl", "objective/kl_k3")).toBe(0.25);
    expect(xOf(p, "kl", "objective/kl_exact")).toBeUndefined();
  });

  it("EMA matches TensorBoard's debiased formula", () => {
    const w = 0.6;
    const ys = [1, 2, 3];
    // Naive: s_t = w s_{t−1} + (1−w) y_t from s_0 = 0, then / (1 − w^t).
    const s1 = 0.4 * 1;
    const s2 = w * s1 + 0.4 * 2;
    const s3 = w * s2 + 0.4 * 3;
    const out = emaSmooth(ys, w);
    expect(out[0]).toBeCloseTo(1, 12); // debiased: the first point is the first value
    expect(out[1]).toBeCloseTo(s2 / (1 - w ** 2), 12);
    expect(out[2]).toBeCloseTo(s3 / (1 - w ** 3), 12);
    expect(emaSmooth(ys, 0)).toEqual(ys);
    expect(emaSmooth([1, Number.NaN, 1], 0.5)).toEqual([1, Number.NaN, 1]);
  });

  it("metricSeries skips points without the metric and keeps raw values exact", () => {
    const h = [point(1, { reward: 0.1 }), point(2, {}), point(3, { reward: 0.3 })];
    const s = metricSeries(h, "reward", "step", "objective/kl", 0);
    expect(s.map((p) => [p.step, p.x, p.raw, p.smooth])).toEqual([
      [1, 1, 0.1, 0.1],
      [3, 3, 0.3, 0.3],
    ]);
  });

  it("on the KL axes the smoothed line's x is the EMA of the KL, over every point with a KL", () => {
    const kls = [0.4, 0.1, 0.5, 0.2];
    // Step 2 has no reward: its KL still enters the x EMA, so a step sits at the same x on every chart.
    const h = kls.map((k, i) =>
      point(i + 1, i === 1 ? { "objective/kl": k } : { "objective/kl": k, reward: i }),
    );
    const ema = emaSmooth(kls, 0.6);
    const s = metricSeries(h, "reward", "kl", "objective/kl", 0.6);
    expect(s.map((p) => p.step)).toEqual([1, 3, 4]);
    expect(s.map((p) => p.x)).toEqual([0.4, 0.5, 0.2]);
    expect(s.map((p) => p.sx)).toEqual([ema[0], ema[2], ema[3]]);
    const sqrt = metricSeries(h, "reward", "sqrt_kl", "objective/kl", 0.6);
    expect(sqrt.map((p) => p.sx)).toEqual([ema[0], ema[2], ema[3]].map(Math.sqrt));
    // A negative k1 batch counts as 0 under the root, but enters the EMA as it is.
    const neg = metricSeries(
      [point(1, { "objective/kl": -0.3, reward: 1 })],
      "reward",
      "sqrt_kl",
      "objective/kl",
      0.6,
    );
    expect([neg[0].x, neg[0].sx]).toEqual([0, 0]);
    // No smoothing, or an exact axis: sx is x.
    for (const [axis, w] of [
      ["kl", 0],
      ["step", 0.6],
      ["tokens", 0.9],
    ] as const)
      for (const p of metricSeries(h, "reward", axis, "objective/kl", w)) expect(p.sx).toBe(p.x);
  });

  it("markerXs puts markers on the smoothed line on the KL axes, and on the exact x elsewhere", () => {
    const kls = [0.4, 0.1, 0.5, 0.2];
    const h = kls.map((k, i) => point(i + 1, { "objective/kl": k, reward: i }));
    const ema = emaSmooth(kls, 0.6);
    const ms = [3, 1, 9].map((step) => ({ runId: "r", step, label: "β" }));
    // Step 9 is not trained yet: the last point's x.
    expect(markerXs(h, ms, "kl", "objective/kl", 0.6)).toEqual([ema[2], ema[0], ema[3]]);
    expect(markerXs(h, ms, "sqrt_kl", "objective/kl", 0.6)).toEqual([ema[2], ema[0], ema[3]].map(Math.sqrt));
    expect(markerXs(h, ms, "kl", "objective/kl", 0)).toEqual([0.5, 0.4, 0.2]);
    expect(markerXs(h, ms, "step", "objective/kl", 0.6)).toEqual([3, 1, 9]);
    expect(markerXs([], ms, "kl", "objective/kl", 0.6)).toEqual([undefined, undefined, undefined]);
  });

  it("markerX finds the first point at or after the marker's step", () => {
    const h = [point(1, { "objective/kl": 0.1 }), point(2, { "objective/kl": 0.2 })];
    const m = { runId: "r", step: 2, label: "β" };
    expect(markerX(h, m, "tokens", "objective/kl")).toBe(200);
    expect(markerX(h, m, "kl", "objective/kl")).toBe(0.2);
    expect(markerX(h, { ...m, step: 5 }, "step", "objective/kl")).toBe(5);
    expect(markerX(h, { ...m, step: 5 }, "samples", "objective/kl")).toBe(16);
    expect(markerX([], m, "samples", "objective/kl")).toBeUndefined();
  });

  it("nearest picks the closest x as drawn", () => {
    const pts = [1, 4, 9].map((x) => ({ step: x, x, raw: x, smooth: x, sx: 10 - x }));
    expect(nearest(pts, 5)?.x).toBe(4);
    expect(nearest(pts, 5, true)?.step).toBe(4); // sx 6
    expect(nearest(pts, 1.5, true)?.step).toBe(9); // sx 1
    expect(spans(pts, 9.5)).toBe(false);
    expect(spans(pts, 8.5, true)).toBe(true);
    expect(spans(pts, 9.5, true)).toBe(false);
    expect(nearest([], 5)).toBeUndefined();
    expect(xExtent([{ points: pts }], false)).toEqual([1, 9]);
    expect(xExtent([{ points: pts }], true)).toEqual([1, 9]); // raw 1…9 and smoothed 9…1
    expect(xExtent([{ points: pts.slice(1, 2) }], true)).toEqual([4, 6]);
    expect(xExtent([{ points: [] }], true)).toBeUndefined();
  });
});

describe("nice y domains", () => {
  it("a floor keeps early outliers from flattening the rest, and counts what it leaves off", () => {
    // Explained variance: −400 and −30 at the first steps, then values in [−0.5, 0.9].
    const raw = [-400, -30, -0.5, 0.2, 0.6, 0.9];
    const series = [{ points: raw.map((v) => ({ raw: v, smooth: Math.max(v, -0.2) })) }];
    const free = yAxisOf(series);
    expect(free.domain[0]).toBeLessThanOrEqual(-400);
    expect(free.offScale).toBe(0);
    const floored = yAxisOf(series, -1);
    expect(floored.domain).toEqual([-1, 1]);
    expect(floored.offScale).toBe(2); // raw points only: −400 and −30
    // Nothing below the floor: the same axis as without it.
    const high = [
      {
        points: [
          { step: 1, x: 1, raw: 0.1, smooth: 0.1, sx: 1 },
          { step: 2, x: 2, raw: 0.7, smooth: 0.4, sx: 2 },
        ],
      },
    ];
    expect(yAxisOf(high, -1)).toEqual({ ...niceDomain([0.1, 0.1, 0.7, 0.4]), offScale: 0 });
  });

  it("round ticks covering the data", () => {
    const { domain, ticks } = niceDomain([0.013, 0.207]);
    expect(domain[0]).toBeLessThanOrEqual(0.013);
    expect(domain[1]).toBeGreaterThanOrEqual(0.207);
    expect(ticks).toEqual([0, 0.05, 0.1, 0.15, 0.2, 0.25]);
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  it("a flat series gets a band, and no data gives [0, 1]", () => {
    const flat = niceDomain([0.05, 0.05, 0.05]);
    expect(flat.domain[0]).toBeLessThan(0.05);
    expect(flat.domain[1]).toBeGreaterThan(0.05);
    expect(new Set(flat.ticks).size).toBe(flat.ticks.length);
    expect(niceDomain([]).domain).toEqual([0, 1]);
    expect(niceDomain([Number.NaN, 2, 2]).ticks.length).toBeGreaterThan(1);
    // All zeros (a clip fraction before any clipping): [0, 1], not −1 … 1.
    expect(niceDomain([0, 0, 0]).domain).toEqual([0, 1]);
    expect(niceDomain([-0.5, -0.5]).domain[1]).toBeGreaterThan(-0.5);
  });

  it("negative ranges", () => {
    const { ticks } = niceDomain([-0.13, 0.12]);
    expect(ticks[0]).toBeLessThanOrEqual(-0.13);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(0.12);
    expect(ticks).toContain(0);
  });

  it("markerRows stacks labels that would overlap and drops repeated ones", () => {
    const rows = markerRows(
      [
        { x: 10, label: "β 0.1" },
        { x: 10, label: "β 0.1" }, // same change on another run: no second label
        { x: 11, label: "a" }, // 1 % of the span to the right of a 15 % label: next row
        { x: 11.5, label: "b" },
        { x: 11.7, label: "c" },
        { x: 12, label: "lr 1e-3" }, // all 4 rows taken here: no label rather than one drawn over another
        { x: 50, label: "τ 0.7" }, // far enough: back to row 0
        { x: undefined, label: "pending" },
      ],
      100,
      0.15,
      4,
    );
    expect(rows).toEqual([0, -1, 1, 2, 3, -1, 0, -1]);
  });

  it("markerRows sees labels that run leftwards from their line (near the right edge)", () => {
    // A label running right from 60 and one running left from 80, each 25 % of the span: they meet at 70-85.
    const meet = [
      { x: 60, label: "β 0.05 → 0.5", width: 0.25 },
      { x: 80, label: "loss sigmoid → ipo", width: 0.25, toLeft: true },
    ];
    expect(markerRows(meet, 100)).toEqual([0, 1]);
    // Narrower labels leave each other room: one row.
    expect(
      markerRows(
        meet.map((m) => ({ ...m, width: 0.09 })),
        100,
      ),
    ).toEqual([0, 0]);
    // Both leftwards, 10 apart, 15 % wide: the later one's label covers the earlier one's.
    expect(
      markerRows(
        [
          { x: 80, label: "a", toLeft: true },
          { x: 90, label: "b", toLeft: true },
        ],
        100,
      ),
    ).toEqual([0, 1]);
  });

  it("niceTicksWithin puts round ticks inside the range", () => {
    expect(niceTicksWithin(1, 48, 5, true)).toEqual([10, 20, 30, 40]);
    expect(niceTicksWithin(8, 427, 5, true)).toEqual([100, 200, 300, 400]);
    expect(niceTicksWithin(-0.603, 0.597)).toEqual([-0.5, -0.25, 0, 0.25, 0.5]);
    expect(niceTicksWithin(1, 3, 5, true)).toEqual([1, 2, 3]);
    expect(niceTicksWithin(2, 2)).toEqual([2]);
    // Equal but for rounding (best-of-n runs at one KL budget on a KL axis): one tick, not an endless loop that
    // crashed the page ("RangeError: Invalid array length").
    expect(niceTicksWithin(0.1, 0.1 + 2 ** -56)).toEqual([0.1]);
    expect(niceTicksWithin(0.6931471805599453, 0.6931471805599454, 3)).toEqual([0.6931471805599453]);
    expect(niceTicksWithin(1e6, 1e6 + 1e-9, 5, false)).toEqual([1e6]);
    expect(niceTicksWithin(Number.NaN, 1)).toEqual([]);
  });

  it("niceTicksWithin shows at least two ticks where a finer round step fits them", () => {
    // At 3 intervals steps 1…32 give a step of 20: 20 alone, no scale to read.
    expect(niceTicksWithin(1, 32, 3, true)).toEqual([10, 20, 30]);
    expect(niceTicksWithin(1, 2, 3, true)).toEqual([1, 2]);
    expect(niceTicksWithin(0.11, 0.29, 3)).toEqual([0.15, 0.2, 0.25]);
    for (const [lo, hi] of [
      [1, 32],
      [3, 19],
      [0.013, 0.031],
      [7, 13],
      [120, 261],
    ])
      expect(niceTicksWithin(lo, hi, 3, Number.isInteger(lo)).length).toBeGreaterThanOrEqual(2);
  });
});
