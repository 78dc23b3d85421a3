/**
 * The memoised history readers (history_memo.ts, series_memo.ts extendSeries) against plain scans of the whole history,
 * over histories that grow, rewind, fork and change parameters as the lab's do.
 */
import { describe, expect, it } from "vitest";
import type { MetricPoint } from "../../lab/protocol";
import { Rng } from "../../util/rng";
import type { KlEstimator, XAxis } from "../lab_store";
import { firstAtOrAfter, reportedMetrics, rewardEverNotGold } from "./history_memo";
import { belowZero, K1_KEY } from "./kl_note";
import { metricSeries } from "./series";
import { extendSeries, pointsFrom, type SeriesMemo } from "./series_memo";

const KEYS = ["reward", "reward_gold", "objective/kl", "objective/kl_k3", "entropy", "rewards/margins"];

/** A point at `step` with a random subset of metrics, some non-finite, reward equal to gold unless `off`. */
function randomPoint(rng: Rng, step: number, off: boolean): MetricPoint {
  const metrics: Record<string, number> = {};
  for (const k of KEYS) {
    if (rng.float() < 0.2) continue;
    const u = rng.float();
    metrics[k] = u < 0.05 ? Number.NaN : u < 0.08 ? Number.POSITIVE_INFINITY : rng.float() * 4 - 1;
  }
  if (!off && "reward" in metrics) metrics.reward_gold = metrics.reward;
  return { step, samples: step * 8, tokens: step * 100 + rng.int(0, 99), metrics };
}

/** A run's life: appended steps, rewinds to an earlier step, forks that copy a prefix (apply_updates.ts). */
function* histories(seed: number, rounds: number): Generator<readonly MetricPoint[]> {
  const rng = new Rng(seed);
  let h: readonly MetricPoint[] = [];
  const off = rng.float() < 0.5;
  for (let r = 0; r < rounds; r++) {
    const u = rng.float();
    const last = h.at(-1)?.step ?? 0;
    if (u < 0.12 && h.length) {
      const at = rng.int(0, last);
      h = h.filter((p) => p.step <= at); // a rewind (lost device, back to a checkpoint)
    } else if (u < 0.18 && h.length) {
      h = [...h.slice(0, rng.int(0, h.length))]; // a fork's copy of its source, to be extended on its own
    } else if (u < 0.22) {
      h = [...h]; // the same points in a new array (a reducer's copy)
    } else {
      const add = Array.from({ length: rng.int(1, 4) }, (_, i) =>
        randomPoint(rng, last + 1 + i, off && rng.float() < 0.1),
      );
      h = [...h, ...add];
    }
    yield h;
  }
}

describe("memoised history readers", () => {
  it("extendSeries equals metricSeries after appends, rewinds, forks and parameter changes", () => {
    const axes: XAxis[] = ["step", "samples", "tokens", "kl", "sqrt_kl"];
    const kls: KlEstimator[] = ["objective/kl", "objective/kl_k3"];
    let checked = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const rng = new Rng(100 + seed);
      let memo: SeriesMemo | undefined;
      let params = { metric: "reward", axis: "step" as XAxis, kl: kls[0], smoothing: 0.6, from: 0 };
      for (const h of histories(seed, 120)) {
        if (rng.float() < 0.1)
          params = {
            metric: KEYS[rng.int(0, KEYS.length - 1)],
            axis: axes[rng.int(0, axes.length - 1)],
            kl: kls[rng.int(0, 1)],
            smoothing: [0, 0.6, 0.99, 1][rng.int(0, 3)],
            from: rng.float() < 0.3 ? rng.int(0, 20) : 0,
          };
        // A chart does not see every update: a rewind and new steps can land between two redraws.
        if (rng.float() < 0.5) continue;
        const { metric, axis, kl, smoothing, from } = params;
        const got = extendSeries(memo, h, metric, axis, kl, smoothing, from);
        memo = got.memo;
        expect(pointsFrom(got.memo.points, got.start)).toEqual(
          metricSeries(h, metric, axis, kl, smoothing, from),
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(12 * 40);
  });

  it("extendSeries computes only the appended points (the memo's own columns grow)", () => {
    const rng = new Rng(3);
    const h = Array.from({ length: 50 }, (_, i) => randomPoint(rng, i + 1, false));
    const a = extendSeries(undefined, h.slice(0, 40), "entropy", "step", "objective/kl", 0.6);
    const b = extendSeries(a.memo, h, "entropy", "step", "objective/kl", 0.6);
    expect(b.memo).toBe(a.memo);
    expect(b.memo.points.length).toBe(metricSeries(h, "entropy", "step", "objective/kl", 0.6).length);
    // A rewritten history (same length, another point at the end) is computed afresh.
    const other = [...h.slice(0, 49), randomPoint(rng, 50, false)];
    expect(extendSeries(b.memo, other, "entropy", "step", "objective/kl", 0.6).memo).not.toBe(a.memo);
  });

  it("reportedMetrics and rewardEverNotGold equal plain scans", () => {
    for (let seed = 1; seed <= 20; seed++)
      for (const h of histories(seed, 80)) {
        const names = new Set(h.flatMap((p) => Object.keys(p.metrics)));
        expect([...reportedMetrics(h)].sort()).toEqual([...names].sort());
        expect(rewardEverNotGold(h)).toBe(h.some((p) => p.metrics.reward !== p.metrics.reward_gold));
      }
  });

  it("belowZero counts the points after each line's `from` as a plain scan does", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rng = new Rng(seed);
      for (const h of histories(seed, 80)) {
        const lines = [0, rng.int(0, 30), rng.int(0, 30)].map((from) => ({
          runId: "r",
          runLabel: "r",
          colour: "#000",
          metric: K1_KEY,
          history: h,
          from,
        }));
        let negative = 0;
        let total = 0;
        for (const l of lines)
          for (const p of h) {
            const v = p.metrics[K1_KEY];
            if (p.step <= l.from || v === undefined || !Number.isFinite(v)) continue;
            total++;
            if (v < 0) negative++;
          }
        expect(belowZero(lines, K1_KEY)).toEqual({ negative, total });
      }
    }
  });

  it("firstAtOrAfter is the first point at or after a step", () => {
    const rng = new Rng(9);
    for (let n = 0; n < 40; n++) {
      let step = 0;
      const h = Array.from({ length: n }, () => randomPoint(rng, (step += rng.int(1, 3)), false));
      for (let s = -1; s <= step + 2; s++) {
        const i = h.findIndex((p) => p.step >= s);
        expect(firstAtOrAfter(h, s)).toBe(i === -1 ? h.length : i);
      }
    }
  });
});
