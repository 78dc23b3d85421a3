/**
 * What a metric chart draws (MetricChart.tsx): its lines and markers, its props, the series it computes from
 * them, and the x axis's name.
 */
import type { ReactNode } from "react";
import type { Marker, MetricPoint } from "../../lab/protocol";
import type { KlEstimator, XAxis as XAxisKind } from "../lab_store";
import { KL_CHART_UNIT, KL_ESTIMATORS } from "./metric_info";
import type { RunShape } from "./run_shape";
import type { PlotPoint } from "./series";

/** One line to draw: a metric of a run. */
export interface ChartLine {
  runId: string;
  runLabel: string;
  colour: string;
  metric: string;
  /** Shown in the hover card when a chart has several lines per run ("gold"). */
  name?: string;
  dashed?: boolean;
  /** Its run's colour is another run's too: drawn dotted (./palette.ts isDotted). */
  dotted?: boolean;
  /** Its run's shape (./run_shape.ts), drawn at the line's latest point; none drawn without. */
  shape?: RunShape;
  history: readonly MetricPoint[];
  /**
   * The first step drawn (default 0): a fork's line starts where it branched off its source (ChartsPanel
   * drawnFrom). The smoothing still runs over the whole history, so the line starts at the source's value.
   */
  from?: number;
}

/** A run's settings markers, drawn once per run. */
export interface ChartMarkers {
  runId: string;
  runLabel: string;
  colour: string;
  markers: readonly Marker[];
  history: readonly MetricPoint[];
}

/** The x axis's name; `note` adds a reading hint (the axis label has room for it, the hover card not). */
export function xAxisLabel(axis: XAxisKind, kl: KlEstimator, note = false): string {
  switch (axis) {
    case "step":
      return "step";
    case "samples":
      return "completions generated";
    case "tokens":
      return "completion tokens";
    case "kl":
      // k1 is an unbiased but noisy batch estimate: it dips below 0 although a KL never does.
      return `KL (${KL_ESTIMATORS.find((k) => k.key === kl)?.name}), ${KL_CHART_UNIT}${note && kl === "objective/kl" ? " — k1 batch estimates can be < 0" : ""}`;
    case "sqrt_kl":
      return `√KL (${KL_ESTIMATORS.find((k) => k.key === kl)?.name}), √(${KL_CHART_UNIT})`;
  }
}

export interface ChartProps {
  id: string;
  title: string;
  unit?: string;
  /** One line for a student, shown on hover and focus of the title (the glossary). */
  doc: string;
  /** The metric's TRL name, shown in the title's card. */
  metric?: string;
  lines: readonly ChartLine[];
  markers: readonly ChartMarkers[];
  /** Plot height: px, or any CSS length (the main charts grow with the window, for projectors). */
  height: number | string;
  /** Controls shown in the chart's header (e.g. the KL estimator). */
  extra?: ReactNode;
  compact?: boolean;
  /**
   * The y-axis starts no lower than this (a metric whose early outliers would flatten the rest: explained
   * variance at −400); lower values run off the plot, and the header says how many (hover and table keep them).
   */
  yFloor?: number;
  /** What the y axis plots, written along it (the reward chart: its lines are scores of two scorers). */
  yLabel?: string;
}

export interface DrawnSeries {
  /** The line's identity (run and metric), for React keys. */
  id: string;
  line: ChartLine;
  points: PlotPoint[];
  /**
   * What the chart's main line is drawn through, in step order: `points` themselves, or where the smoothed line's
   * x is smoothed (series.ts smoothsX) each point at its `sx`.
   */
  drawn: readonly { x: number; smooth: number; raw: number }[];
  total: number;
}
