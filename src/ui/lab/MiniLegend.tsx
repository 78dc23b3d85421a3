/**
 * The runs a small diagnostics chart draws (More metrics), each with its colour: a diagnostic only some
 * algorithms report (clip ratios, DPO margins) draws only their runs, so the main charts' legend does not say
 * which lines are here. Not interactive: hiding a run is the main legend's job. A companion line drawn dashed
 * in its run's colour (Safe RLHF's cost limit d) is named once, and the solid lines beside it.
 */
import type { ChartLine } from "./MetricChart";
import "./mini_legend.css";
import { miniLegendEntries } from "./mini_legend_entries";
import { RunSwatch } from "./RunSwatch";

export function MiniLegend({
  lines,
  id,
  solid,
}: {
  lines: readonly ChartLine[];
  id: string;
  /** The solid lines' name, when a companion is drawn dashed beside them ("chosen" beside "rejected"). */
  solid?: string;
}) {
  const runs = miniLegendEntries(lines);
  if (!runs.length) return null;
  const dashed = [...new Set(lines.flatMap((l) => (l.dashed && l.name ? [l.name] : [])))];
  return (
    <ul className="mini-legend" aria-label="Runs on this chart" data-testid={`mini-legend-${id}`}>
      {runs.map((r) => (
        <li key={r.runId} data-run={r.runId}>
          <RunSwatch look={r} />
          {r.label}
        </li>
      ))}
      {solid && dashed.length > 0 && (
        <li className="mini-legend-solid">
          <span className="mini-legend-line" aria-hidden="true" />
          {solid}
        </li>
      )}
      {dashed.map((name) => (
        <li key={`dashed-${name}`} className="mini-legend-dashed">
          <span className="mini-legend-dash" aria-hidden="true" />
          {name}
        </li>
      ))}
    </ul>
  );
}
