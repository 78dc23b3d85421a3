/**
 * Whether a pixel position lies on a recharts plot area (with half a pixel of slack at its edges): a value off
 * the plot (below a y floor, past the x domain) gets no mark (./HoverDots.tsx, ./EndShapes.tsx).
 */
export function onPlot(px: number | undefined, lo: number, size: number): px is number {
  return px !== undefined && Number.isFinite(px) && px >= lo - 0.5 && px <= lo + size + 0.5;
}
