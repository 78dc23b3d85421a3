import { describe, expect, it } from "vitest";
import type { MetricPoint } from "../../lab/protocol";
import type { RunState } from "../lab_store";
import { MORE_METRICS } from "./metric_info";
import { moreChartLines } from "./more_lines";
import { keepIfSame, sameItems } from "./stable";
import { markersOf } from "./visible_runs";

const point = (step: number, metrics: Record<string, number>): MetricPoint => ({
  step,
  samples: step,
  tokens: step,
  metrics,
});

const run = (id: string, history: MetricPoint[], markers: { step: number; label: string }[] = []) => ({
  run: {
    spec: { id, label: id, algo: "x", config: {} },
    status: "running",
    step: history.length,
    history,
    markers,
    samples: [],
    error: null,
  } as unknown as RunState,
  colour: `colour-${id}`,
});

describe("sameItems / keepIfSame", () => {
  it("compare flat objects field by field, by identity", () => {
    const h: MetricPoint[] = [];
    expect(sameItems([{ a: 1, h }], [{ a: 1, h }])).toBe(true);
    expect(sameItems([{ a: 1, h }], [{ a: 1, h: [] }])).toBe(false);
    expect(sameItems([{ a: 1 }], [{ a: 2 }])).toBe(false);
    expect(sameItems([{ a: 1 }], [{ a: 1, b: undefined }])).toBe(false);
    expect(sameItems([{ a: 1 }], [{ a: 1 }, { a: 1 }])).toBe(false);
    expect(sameItems([], [])).toBe(true);
    const prev = [{ a: 1 }];
    expect(keepIfSame(prev, [{ a: 1 }])).toBe(prev);
    const next = [{ a: 2 }];
    expect(keepIfSame(prev, next)).toBe(next);
    expect(keepIfSame(undefined, next)).toBe(next);
  });
});

describe("chart inputs keep their identity while their data is unchanged", () => {
  const margins = MORE_METRICS.find((m) => m.key === "rewards/margins");
  const clip = MORE_METRICS.find((m) => m.key === "policy/clipfrac_avg");
  if (!margins || !clip) throw new Error("missing diagnostics");

  it("a PPO step leaves a DPO-only diagnostic's lines as they were, and changes PPO's", () => {
    const dpo = run("dpo", [point(1, { "rewards/margins": 0.1 })]);
    const ppo1 = run("ppo", [point(1, { "policy/clipfrac_avg": 0.2 })]);
    const ppo2 = run("ppo", [...ppo1.run.history, point(2, { "policy/clipfrac_avg": 0.3 })]);
    const before = moreChartLines(margins, [dpo, ppo1]);
    expect(keepIfSame(before, moreChartLines(margins, [dpo, ppo2]))).toBe(before);
    const clipBefore = moreChartLines(clip, [dpo, ppo1]);
    expect(keepIfSame(clipBefore, moreChartLines(clip, [dpo, ppo2]))).not.toBe(clipBefore);
  });

  it("markers carry a run's history only when it has markers", () => {
    // The store keeps a run's markers array while no marker arrives (lab_store.ts).
    const none: { step: number; label: string }[] = [];
    const a1 = run("a", [point(1, {})], none);
    const a2 = run("a", [point(1, {}), point(2, {})], none);
    const before = markersOf([a1]);
    expect(before[0].history).toEqual([]);
    expect(keepIfSame(before, markersOf([a2]))).toBe(before);
    const marked = run("a", a2.run.history, [{ step: 2, label: "β 0.1" }]);
    const withMarker = markersOf([marked]);
    expect(withMarker[0].history).toBe(a2.run.history);
    expect(keepIfSame(before, withMarker)).not.toBe(before);
  });

  it("a run with placed markers keeps its marker history while it steps; a pending marker follows the run", () => {
    const markers = [{ step: 2, label: "β 0.1" }];
    const h2 = [point(1, {}), point(2, {})];
    const h3 = [...h2, point(3, {})];
    const placed = markersOf([run("a", h2, markers)]);
    expect(placed[0].history).toBe(h2);
    const stepped = markersOf([run("a", h3, markers)]);
    expect(stepped[0].history).toBe(h2);
    expect(keepIfSame(placed, stepped)).toBe(placed);
    // A rewritten history (e.g. a rewind) moves the marker's point: the live history is used.
    const rewound = [point(1, {}), point(2, { x: 1 }), point(3, {})];
    expect(markersOf([run("a", rewound, markers)])[0].history).toBe(rewound);
    // A marker for a step not trained yet sits at the last point, so each step moves it.
    const pending = [{ step: 5, label: "lr 1e-4" }];
    expect(markersOf([run("a", h2, pending)])[0].history).toBe(h2);
    expect(markersOf([run("a", h3, pending)])[0].history).toBe(h3);
  });
});
