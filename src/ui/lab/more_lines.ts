/**
 * The lines and markers of the More metrics charts (./MoreMetrics.tsx).
 */

import { reportedMetrics } from "./history_memo";
import type { ChartLine, ChartMarkers } from "./MetricChart";
import type { MetricInfo } from "./metric_info";
import { linesOf, type VisibleRun } from "./visible_runs";

/**
 * The lines of one diagnostics chart: each run that reports the metric, and, for a metric with a companion
 * (Safe RLHF's cost and its limit d), the companion dashed in the same run's colour.
 */
export function moreChartLines(info: MetricInfo, visible: readonly VisibleRun[]): ChartLine[] {
  const reporting = visible.filter((v) => reportedMetrics(v.run.history).has(info.key));
  const lines = linesOf(reporting, info.key);
  if (!info.companion) return lines;
  const { key, name } = info.companion;
  // Only runs that log the companion (a run saved before it was logged has none to draw).
  const withCompanion = reporting.filter((v) => reportedMetrics(v.run.history).has(key));
  return [...lines, ...linesOf(withCompanion, key, { dashed: true, name })];
}

/** The settings markers of the runs a chart draws (a diagnostic only DPO reports shows no PPO β change). */
export function markersFor(lines: readonly ChartLine[], markers: readonly ChartMarkers[]): ChartMarkers[] {
  const drawn = new Set(lines.map((l) => l.runId));
  return markers.filter((m) => drawn.has(m.runId));
}
