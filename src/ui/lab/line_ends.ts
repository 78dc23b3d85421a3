/**
 * Where each chart line ends and its run shape is drawn (./EndShapes.tsx).
 */
import type { DrawnSeries } from "./chart_types";

export interface LineEnd {
  key: string;
  runId: string;
  x: number;
  y: number;
  colour: string;
  shape: NonNullable<DrawnSeries["line"]["shape"]>;
  /** Hollow: a run drawn dotted (its colour is another run's too), as its legend swatch. */
  hollow: boolean;
}

/**
 * The ends to draw: each series with a shape and a point, where its drawn line ends — its latest point (lines
 * join their points in step order; on a KL axis that need not be the rightmost) — at its plotted x and y.
 */
export function lineEnds(series: readonly DrawnSeries[], smoothed: boolean): LineEnd[] {
  return series.flatMap((s) => {
    const last = s.drawn.at(-1);
    const shape = s.line.shape;
    if (!last || !shape) return [];
    const y = smoothed ? last.smooth : last.raw;
    if (!Number.isFinite(last.x) || !Number.isFinite(y)) return [];
    return [
      {
        key: s.id,
        runId: s.line.runId,
        x: last.x,
        y,
        colour: s.line.colour,
        shape,
        hollow: s.line.dotted === true,
      },
    ];
  });
}
