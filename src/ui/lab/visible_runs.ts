/**
 * The runs the charts draw (./ChartsPanel.tsx, ./MoreMetrics.tsx): each with its colour, shape and first
 * step, their lines and their markers.
 */
import { startTransition, useEffect, useMemo, useState } from "react";
import type { Marker, MetricPoint, RunSpec } from "../../lab/protocol";
import { seededLabel } from "../../lab/seed_labels";
import { type LabState, type RunState, useLab } from "../lab_store";
import { firstAtOrAfter, rewardEverNotGold } from "./history_memo";
import type { ChartLine, ChartMarkers } from "./MetricChart";
import { runLooks } from "./palette";
import type { RunShape } from "./run_shape";
import { useStableItems } from "./stable";

export interface VisibleRun {
  run: RunState;
  colour: string;
  /** Drawn dotted: its colour is another run's too (more runs than colours; ./palette.ts isDotted). */
  dotted?: boolean;
  /** Its shape (./run_shape.ts): legend swatches and the end of its lines (none: no shape drawn). */
  shape?: RunShape;
  /** The first step its lines show (see {@link drawnFrom}); 0 when absent. */
  from?: number;
  /** Its legend label: its own, with its seed where that is not the experiment's (seed_labels.ts); absent: its own. */
  label?: string;
}

/**
 * The step a run's lines start at. A fork's history up to its fork step is a copy of its source's (and so, up
 * to the source's own fork step, of the source's source…): its lines start where it branched off the nearest
 * of those runs still on the charts, so that they do not hide that run's; 0 when none is shown.
 */
export function drawnFrom(spec: RunSpec, specs: readonly RunSpec[], shown: ReadonlySet<string>): number {
  let from = Number.POSITIVE_INFINITY;
  const seen = new Set([spec.id]);
  for (let f = spec.forkOf; f && !seen.has(f.id); ) {
    const id = f.id;
    from = Math.min(from, f.step);
    if (shown.has(id)) return from;
    seen.add(id);
    f = specs.find((r) => r.id === id)?.forkOf;
  }
  return 0;
}

export function visibleRuns(s: LabState): VisibleRun[] {
  const looks = runLooks(s.spec.runs);
  const runs = s.spec.runs.filter((r) => s.runs[r.id] && !s.view.hidden.includes(r.id));
  const shown = new Set(runs.map((r) => r.id));
  return runs.map((r) => ({
    run: s.runs[r.id],
    colour: looks[r.id].colour,
    ...(looks[r.id].dotted && { dotted: true }),
    shape: looks[r.id].shape,
    from: drawnFrom(r, s.spec.runs, shown),
    label: seededLabel(r, s.spec.seed),
  }));
}

/**
 * The visible runs with their colours, in the experiment's order, for the charts and samples. Not read with a
 * store hook: a worker update lands in React state inside startTransition, so React renders the charts in a
 * background render that yields to input every few ms (and restarts when a newer update arrives) instead of
 * one long main-thread task per update. Run cards and counters read the store directly and update at once.
 */
export function useVisibleRuns(): VisibleRun[] {
  const [visible, setVisible] = useState(() => visibleRuns(useLab.getState()));
  useEffect(
    () =>
      useLab.subscribe((s, prev) => {
        if (s.runs === prev.runs && s.spec.runs === prev.spec.runs && s.view.hidden === prev.view.hidden)
          return;
        startTransition(() => setVisible(visibleRuns(s)));
      }),
    [],
  );
  return visible;
}

/** The lines of one metric for every visible run. */
export function linesOf(
  visible: readonly VisibleRun[],
  metric: string,
  extra?: Partial<ChartLine>,
): ChartLine[] {
  return visible.map(({ run, colour, dotted, shape, from, label }) => ({
    runId: run.spec.id,
    runLabel: label ?? run.spec.label,
    colour,
    ...(dotted && { dotted }),
    ...(shape && { shape }),
    metric,
    history: run.history,
    from: from ?? 0,
    ...extra,
  }));
}

/** Each markers array without the markers before a step (a fork's copies of its source's), kept per array. */
const markersFrom = new WeakMap<readonly Marker[], { from: number; kept: readonly Marker[] }>();

/** A run's own markers: a fork drawn from step `from` leaves the markers up to there to its source. */
function ownMarkers(markers: readonly Marker[], from: number): readonly Marker[] {
  if (from === 0 || !markers.length) return markers;
  const last = markersFrom.get(markers);
  if (last?.from === from) return last.kept;
  const kept = markers.filter((m) => m.step > from);
  markersFrom.set(markers, { from, kept });
  return kept;
}

/** The history a run without markers passes: none is needed, and a constant keeps the list's identity. */
const NO_HISTORY: readonly MetricPoint[] = [];

/** The history each markers array was last placed with (see {@link markerHistory}). */
const placedWith = new WeakMap<readonly Marker[], readonly MetricPoint[]>();

/**
 * The history a run's markers are placed with (series.ts markerX: the first point at or after a marker's step).
 * While every marker's point is the same object in the live history as in the one they were last placed with,
 * that older array is returned, so a run that merely steps after a settings change does not make every chart
 * redraw; a pending marker (its step not trained yet) or a rewritten history gives the live one.
 */
export function markerHistory(
  markers: readonly Marker[],
  history: readonly MetricPoint[],
): readonly MetricPoint[] {
  if (!markers.length) return NO_HISTORY;
  const last = placedWith.get(markers);
  if (last && last !== history) {
    const at = (h: readonly MetricPoint[], m: Marker) => h[firstAtOrAfter(h, m.step)];
    if (
      markers.every((m) => {
        const p = at(history, m);
        return p !== undefined && p === at(last, m);
      })
    )
      return last;
  }
  placedWith.set(markers, history);
  return history;
}

/**
 * Each visible run's settings markers, with the history that places them on a samples, tokens or KL axis
 * ({@link markerHistory}), so the list stays the same (see stable.ts) while runs merely step.
 */
export function markersOf(visible: readonly VisibleRun[]): ChartMarkers[] {
  return visible.map(({ run, colour, from, label }) => {
    const markers = ownMarkers(run.markers, from ?? 0);
    return {
      runId: run.spec.id,
      runLabel: label ?? run.spec.label,
      colour,
      markers,
      history: markerHistory(markers, run.history),
    };
  });
}

/** The visible runs' markers for the charts, the same list while no marker moves (see {@link markersOf}). */
export function useMarkers(visible: readonly VisibleRun[]): readonly ChartMarkers[] {
  return useStableItems(useMemo(() => markersOf(visible), [visible]));
}

/**
 * Whether a run's gold score gets a line of its own: it optimises something else now (a learned reward model),
 * or its reward ever differed from its gold score (it did before, or a cost entered it).
 */
export function goldDiffers({ run }: VisibleRun): boolean {
  if ((run.spec.config.reward ?? "gold") !== "gold") return true;
  return rewardEverNotGold(run.history);
}
