/**
 * The SVG dash pattern of a chart line (./MetricChart.tsx and the legends).
 */
import type { ChartLine } from "./chart_types";

/**
 * A line's dash pattern: gold and companions dashed; a run whose colour another run has too (./palette.ts
 * isDotted) dotted, and dash-dotted where dashed.
 */
export function lineDash(line: Pick<ChartLine, "dashed" | "dotted">): string | undefined {
  if (line.dotted) return line.dashed ? "6 3 0.5 3" : "0.5 4";
  return line.dashed ? "5 4" : undefined;
}
