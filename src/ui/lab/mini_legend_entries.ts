/**
 * The entries of a small chart legend, one per run (./MiniLegend.tsx draws them).
 */

import type { ChartLine } from "./MetricChart";
import type { RunShape } from "./run_shape";

export interface MiniLegendEntry {
  runId: string;
  label: string;
  colour: string;
  /** Its lines are dotted (a colour another run has too): a hollow swatch, as in the main legend. */
  dotted: boolean;
  /** Its shape, as in the main legend. */
  shape: RunShape;
}

/** One entry per run, in the lines' order (a run with a companion line has two lines). */
export function miniLegendEntries(lines: readonly ChartLine[]): MiniLegendEntry[] {
  const seen = new Set<string>();
  return lines.flatMap((l) => {
    if (seen.has(l.runId)) return [];
    seen.add(l.runId);
    return [
      {
        runId: l.runId,
        label: l.runLabel,
        colour: l.colour,
        dotted: l.dotted === true,
        shape: l.shape ?? "circle",
      },
    ];
  });
}
