/**
 * Each run's shape (./run_shape.ts) at the end of its drawn line (lineEnds), in one SVG layer inside
 * the recharts chart (as ./MarkerLayer.tsx: one component reads the scales, rather than an element of
 * recharts' store per line): the legend's shape tells which line is whose without telling colours apart. An
 * end off the plot (below a y floor, past an x domain) is not drawn.
 */
import { DefaultZIndexes, usePlotArea, useXAxisScale, useYAxisScale, ZIndexLayer } from "recharts";
import type { LineEnd } from "./line_ends";
import { onPlot } from "./plot_area";
import { shapePath } from "./run_shape";

/** The shape's radius (px): a little wider than a line (2 px) and the hover dot (3 px). */
const R = { full: 5, compact: 3.5 };

export function EndShapes({ ends, compact }: { ends: readonly LineEnd[]; compact: boolean }) {
  const xs = useXAxisScale();
  const ys = useYAxisScale();
  const area = usePlotArea();
  if (!xs || !ys || !area || ends.length === 0) return null;
  const r = compact ? R.compact : R.full;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line}>
      <g className="line-ends">
        {ends.map((e) => {
          const px = xs(e.x);
          const py = ys(e.y);
          if (!onPlot(px, area.x, area.width) || !onPlot(py, area.y, area.height)) return null;
          return (
            <path
              key={e.key}
              className="line-end"
              data-run={e.runId}
              data-shape={e.shape}
              d={shapePath(e.shape, px, py, r)}
              fill={e.hollow ? "var(--surface)" : e.colour}
              stroke={e.hollow ? e.colour : "var(--surface)"}
              strokeWidth={e.hollow ? 2 : 1.25}
              strokeLinejoin="round"
            />
          );
        })}
      </g>
    </ZIndexLayer>
  );
}
