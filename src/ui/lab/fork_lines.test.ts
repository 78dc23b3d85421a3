/**
 * A fork's lines start where it branched off its source (RunSpec.forkOf), while the source is on the charts:
 * before the fork step its history is a copy of the source's, and its line would hide the source's. A fork of
 * a fork starts where it branched off the nearest ancestor shown; removing or restarting a run re-parents its
 * forks.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { MetricPoint, RunSpec } from "../../lab/protocol";
import { type RunState, useLab } from "../lab_store";
import { metricSeries } from "./series";
import { drawnFrom, linesOf, markersOf, visibleRuns } from "./visible_runs";

const point = (step: number, reward: number): MetricPoint => ({
  step,
  samples: 4 * step,
  tokens: 40 * step,
  metrics: { reward },
});

const history = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((s) => point(s, s / 10));

const state = (spec: RunSpec, markers: number[] = []): RunState => ({
  spec,
  status: "paused",
  step: history.length,
  history,
  markers: markers.map((step) => ({ runId: spec.id, step, label: `change @ ${step}` })),
  samples: [],
  error: null,
});

const A: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };
const B: RunSpec = { ...A, id: "ppo-2", label: "PPO (fork @ 4)", forkOf: { id: "ppo-1", step: 4 } };
const C: RunSpec = { ...A, id: "ppo-3", label: "PPO (fork @ 7)", forkOf: { id: "ppo-2", step: 7 } };

/** The lab holding A, its fork B at 4, and B's fork C at 7; `hidden` off the charts. */
function lab(hidden: string[] = []) {
  useLab.getState().setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [A, B, C] });
  useLab.getState().restoreRuns([state(A, [2]), state(B, [2, 5]), state(C, [2, 5, 8])]);
  useLab.getState().setView({ hidden });
}

const froms = () => Object.fromEntries(visibleRuns(useLab.getState()).map((v) => [v.run.spec.id, v.from]));

describe("a fork on the charts", () => {
  beforeEach(() => lab());

  it("starts at its fork step while its source is drawn, at the nearest shown ancestor's otherwise", () => {
    expect(froms()).toEqual({ "ppo-1": 0, "ppo-2": 4, "ppo-3": 7 });
    // B hidden: C's history up to 4 is A's, and from 4 to 7 B's (which nobody else draws now).
    lab(["ppo-2"]);
    expect(froms()).toEqual({ "ppo-1": 0, "ppo-3": 4 });
    lab(["ppo-1"]);
    expect(froms()).toEqual({ "ppo-2": 0, "ppo-3": 7 });
    lab(["ppo-1", "ppo-2"]);
    expect(froms()).toEqual({ "ppo-3": 0 });
    // A cycle (tampered storage) ends the walk.
    const loop: RunSpec = { ...A, forkOf: { id: "ppo-3", step: 2 } };
    expect(drawnFrom(C, [loop, B, C], new Set(["ppo-3"]))).toBe(0);
  });

  it("its lines start there; the series keeps the smoothing of the whole history", () => {
    const [a, b, c] = linesOf(visibleRuns(useLab.getState()), "reward");
    expect([a.from, b.from, c.from]).toEqual([0, 4, 7]);
    const whole = metricSeries(history, "reward", "samples", "objective/kl", 0.6);
    const drawn = metricSeries(history, "reward", "samples", "objective/kl", 0.6, 4);
    expect(drawn.map((p) => p.step)).toEqual([4, 5, 6, 7, 8, 9, 10]);
    expect(drawn).toEqual(whole.slice(3));
    // The first point drawn is where the source's line is at that step: the two branch there.
    expect(drawn[0].x).toBe(16);
  });

  it("leaves the markers before its fork step to the run it copied them from", () => {
    const visible = visibleRuns(useLab.getState());
    const [a, b, c] = markersOf(visible);
    expect([a, b, c].map((m) => m.markers.map((x) => x.step))).toEqual([[2], [5], [8]]);
    // The same list while nothing changes (the charts redraw on a new one).
    expect(markersOf(visible)[2].markers).toBe(c.markers);
    lab(["ppo-2"]);
    expect(markersOf(visibleRuns(useLab.getState())).map((m) => m.markers.map((x) => x.step))).toEqual([
      [2],
      [5, 8],
    ]);
  });

  it("becomes a fork of its source's source when its source is removed or starts over", () => {
    useLab.getState().removeRun("ppo-2");
    expect(useLab.getState().runs["ppo-3"].spec.forkOf).toEqual({ id: "ppo-1", step: 4 });
    expect(useLab.getState().spec.runs[1].forkOf).toEqual({ id: "ppo-1", step: 4 });
    expect(froms()).toEqual({ "ppo-1": 0, "ppo-3": 4 });
    useLab.getState().removeRun("ppo-1");
    expect(useLab.getState().runs["ppo-3"].spec.forkOf).toBeUndefined();
    expect(useLab.getState().spec.runs[0].label).toBe("PPO (fork @ 7)");
    // B starts over (its checkpoint would not load): B is no fork any more, C a fork of A at 4.
    lab();
    useLab.getState().unfork("ppo-2");
    const specs = useLab.getState().spec.runs;
    expect(specs.map((r) => r.forkOf)).toEqual([undefined, undefined, { id: "ppo-1", step: 4 }]);
    expect(useLab.getState().runs["ppo-2"].spec.forkOf).toBeUndefined();
  });

  it("shares its source's history only up to where the source rewinds to (device lost: its last checkpoint)", () => {
    useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step: 2, points: [], rewindTo: 2 }]);
    expect(useLab.getState().spec.runs.map((r) => r.forkOf)).toEqual([
      undefined,
      { id: "ppo-1", step: 2 },
      { id: "ppo-2", step: 7 },
    ]);
    expect(useLab.getState().runs["ppo-2"].spec.forkOf).toEqual({ id: "ppo-1", step: 2 });
    expect(froms()).toEqual({ "ppo-1": 0, "ppo-2": 2, "ppo-3": 7 });
    // A rewind past the fork step changes nothing.
    const before = useLab.getState().spec;
    useLab.getState().applyUpdates([{ runId: "ppo-2", status: "paused", step: 9, points: [], rewindTo: 9 }]);
    expect(useLab.getState().spec).toBe(before);
  });
});
