/**
 * The dots a chart marks under the cursor, one per line (./HoverDots.tsx draws them).
 */
import type { DrawnSeries } from "./chart_types";
import { drawnX, nearest, spans } from "./series";

/** The dots at hovered x `x`: each line's nearest point as drawn, on the smoothed line or the raw one. */
export function hoverDots(
  series: readonly DrawnSeries[],
  x: number,
  smoothed: boolean,
): { key: string; x: number; y: number; colour: string }[] {
  return series.flatMap((s) => {
    const p = nearest(s.points, x, smoothed);
    if (!p || !spans(s.points, x, smoothed)) return [];
    const y = smoothed ? p.smooth : p.raw;
    return Number.isFinite(y) ? [{ key: s.id, x: drawnX(p, smoothed), y, colour: s.line.colour }] : [];
  });
}
