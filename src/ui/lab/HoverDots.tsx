/**
 * The dots on the lines under the mouse: one on each line the hover card names (./ChartParts.tsx ChartTip), at
 * the point the card gives for it — the line's point nearest the hovered x as drawn (series.ts nearest). In one
 * SVG layer inside the recharts chart, as ./EndShapes.tsx. recharts' own active dot marks only a line with a
 * point exactly at the hovered x: with each line's own points (KL axes, where x differs per line and step) it
 * left most lines the card names without a dot.
 */
import {
  DefaultZIndexes,
  useActiveTooltipLabel,
  useIsTooltipActive,
  usePlotArea,
  useXAxisScale,
  useYAxisScale,
  ZIndexLayer,
} from "recharts";
import type { DrawnSeries } from "./chart_types";
import { hoverDots } from "./hover_dots";
import { onPlot } from "./plot_area";

export function HoverDots({
  series,
  smoothed,
  pinnedX,
}: {
  series: readonly DrawnSeries[];
  smoothed: boolean;
  /** A pinned card's x (chart_pin.ts): the dots stay on its points, wherever the mouse is. */
  pinnedX?: number;
}) {
  const hovered = useIsTooltipActive();
  const hoverLabel = useActiveTooltipLabel();
  const active = pinnedX !== undefined || hovered;
  const label = pinnedX ?? hoverLabel;
  const xs = useXAxisScale();
  const ys = useYAxisScale();
  const area = usePlotArea();
  const x = Number(label);
  if (!active || label === undefined || !Number.isFinite(x) || !xs || !ys || !area) return null;
  // A value off the plot (below a y floor) gets no dot, as it gets no end shape.
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.activeDot}>
      <g className="hover-dots">
        {hoverDots(series, x, smoothed).map((d) => {
          const px = xs(d.x);
          const py = ys(d.y);
          if (!onPlot(px, area.x, area.width) || !onPlot(py, area.y, area.height)) return null;
          return (
            <circle
              key={d.key}
              className="hover-dot"
              cx={px}
              cy={py}
              r={3}
              fill={d.colour}
              stroke="var(--surface)"
              strokeWidth={2}
            />
          );
        })}
      </g>
    </ZIndexLayer>
  );
}
