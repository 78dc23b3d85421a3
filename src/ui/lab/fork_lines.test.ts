/**
 * A fork's lines start where it branched off its source (RunSpec.forkOf), while the source is on the charts:
 * before the fork step its history is a copy of the source's, and its line would hide the source's.
 */
import { describe, expect, it } from "vitest";
import type { MetricPoint, RunSpec } from "../../lab/protocol";
import { type RunState, useLab } from "../lab_store";
import { drawnFrom, linesOf, markersOf } from "./ChartsPanel";
import { metricSeries } from "./series";

const point = (step: number, reward: number): MetricPoint => ({
  step,
  samples: 4 * step,
  tokens: 40 * step,
  metrics: { reward },
});

const history = [1, 2, 3, 4, 5, 6].map((s) => point(s, s / 10));

const run = (spec: RunSpec, markers: { step: number; label: string }[] = []) => ({
  run: {
    spec,
    status: "paused",
    step: history.length,
    history,
    markers: markers.map((m) => ({ ...m, runId: spec.id })),
    samples: [],
    error: null,
  } as unknown as RunState,
  colour: `colour-${spec.id}`,
});

const source = run({ id: "ppo-1", algo: "ppo", label: "PPO", config: {} }, [
  { step: 2, label: "β 0.05 → 0.1" },
]);
const fork = run(
  { id: "ppo-2", algo: "ppo", label: "PPO (fork @ 4)", config: {}, forkOf: { id: "ppo-1", step: 4 } },
  [
    { step: 2, label: "β 0.05 → 0.1" },
    { step: 5, label: "lr 1e-5 → 1e-4" },
  ],
);

describe("a fork on the charts", () => {
  it("starts at its fork step while its source is drawn, and is drawn whole when the source is hidden", () => {
    expect(drawnFrom(fork.run, [source, fork])).toBe(4);
    expect(drawnFrom(fork.run, [fork])).toBe(0);
    expect(drawnFrom(source.run, [source, fork])).toBe(0);
    const [s, f] = linesOf([source, fork], "reward");
    expect(s.from).toBe(0);
    expect(f.from).toBe(4);
    expect(linesOf([fork], "reward")[0].from).toBe(0);
  });

  it("its series keeps the smoothing of the whole history, from the fork step on", () => {
    const whole = metricSeries(history, "reward", "samples", "objective/kl", 0.6);
    const drawn = metricSeries(history, "reward", "samples", "objective/kl", 0.6, 4);
    expect(drawn.map((p) => p.step)).toEqual([4, 5, 6]);
    expect(drawn).toEqual(whole.slice(3));
    // The first point drawn is where the source's line is at that step: the two branch there.
    expect(drawn[0].x).toBe(16);
  });

  it("leaves the markers before its fork step to its source", () => {
    const [s, f] = markersOf([source, fork]);
    expect(s.markers.map((m) => m.step)).toEqual([2]);
    expect(f.markers.map((m) => m.step)).toEqual([5]);
    // The same list while nothing changes (the charts redraw on a new one).
    expect(markersOf([source, fork])[1].markers).toBe(f.markers);
    expect(markersOf([fork])[0].markers.map((m) => m.step)).toEqual([2, 5]);
  });

  it("is drawn whole once its source is removed (a new run may take the source's id)", () => {
    const experiment = {
      task: "arithmetic" as const,
      model: "nano" as const,
      seed: 0,
      runs: [source.run.spec, fork.run.spec],
    };
    useLab.getState().setSpec(experiment);
    useLab.getState().restoreRuns([source.run, fork.run]);
    expect(useLab.getState().runs["ppo-2"].spec.forkOf).toEqual({ id: "ppo-1", step: 4 });
    useLab.getState().removeRun("ppo-1");
    expect(useLab.getState().runs["ppo-2"].spec.forkOf).toBeUndefined();
    expect(useLab.getState().spec.runs[0].forkOf).toBeUndefined();
    expect(useLab.getState().spec.runs[0].label).toBe("PPO (fork @ 4)");
  });
});
