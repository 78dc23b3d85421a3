/**
 * The smoothed x on the KL axes (series.ts smoothsX) is one value per step wherever it is computed: the chart's
 * memo grown point by point, metricSeries, the markers; points without a KL (missing or NaN) have no x, smoothed
 * or not; the hover card names a line wherever its faint raw line or its smoothed one is drawn.
 */
import { describe, expect, it } from "vitest";
import type { MetricPoint } from "../../lab/protocol";
import { markerXs, metricSeries, nearest, spans } from "./series";
import { extendSeries, pointsFrom } from "./series_memo";

const point = (step: number, metrics: Record<string, number>): MetricPoint => ({
  step,
  samples: step * 8,
  tokens: step * 100,
  metrics,
});
const K = "objective/kl";
// KL missing at step 3, NaN at 5, reward missing at 2; negative k1 at 6.
const h: MetricPoint[] = [
  point(1, { [K]: 0.4, reward: 1 }),
  point(2, { [K]: 0.1 }),
  point(3, { reward: 3 }),
  point(4, { [K]: 0.5, reward: 4 }),
  point(5, { [K]: Number.NaN, reward: 5 }),
  point(6, { [K]: -0.2, reward: 6 }),
  point(7, { [K]: 0.3, reward: 7 }),
];

describe("the smoothed x on the KL axes", () => {
  for (const axis of ["kl", "sqrt_kl"] as const)
    it(`memo (grown point by point) = metricSeries = markerXs on ${axis}`, () => {
      let memo: ReturnType<typeof extendSeries>["memo"] | undefined;
      for (let n = 1; n <= h.length; n++)
        memo = extendSeries(memo, h.slice(0, n), "reward", axis, K, 0.6).memo;
      const series = metricSeries(h, "reward", axis, K, 0.6);
      expect(pointsFrom(memo!.points)).toEqual(series);
      const ms = series.map((p) => ({ runId: "r", step: p.step, label: "m" }));
      expect(markerXs(h, ms, axis, K, 0.6)).toEqual(series.map((p) => p.sx));
    });

  it("a marker at a step without a KL is not placed, smoothed or not", () => {
    const m = [{ runId: "r", step: 3, label: "β" }];
    // Same marker, same axis: only the smoothing differs.
    expect([
      markerXs(h, m, "kl", K, 0)[0] === undefined,
      markerXs(h, m, "kl", K, 0.6)[0] === undefined,
    ]).toEqual([true, true]);
  });

  it("hover card: a line whose faint raw line is drawn at x is listed there", () => {
    const s = metricSeries(h, "reward", "kl", K, 0.9);
    const maxRaw = Math.max(...s.map((p) => p.x));
    // The raw line reaches maxRaw (0.5), the smoothed x stays lower: the card drops the line at the raw line's end.
    expect(nearest(s, maxRaw, true)).toBeDefined();
    expect(spans(s, maxRaw, true)).toBe(true);
  });
});
