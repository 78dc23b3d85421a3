/**
 * A chart's settings markers (./marker_place.ts placeMarkers) drawn in one SVG layer inside the recharts chart:
 * a dashed vertical line each, in its run's colour, and its label in its row at the top of the plot, labels
 * over every line. One component reads the chart's x scale and plot area; a recharts ReferenceLine per marker
 * made each marker an element of recharts' own store, whose selectors ran again for every marker on every
 * redraw (40 changes of β, 600 markers over the lab's charts: the main thread's long tasks went from a fifth to
 * two thirds of its time).
 */
import { DefaultZIndexes, usePlotArea, useXAxisScale, ZIndexLayer } from "recharts";
import type { placeMarkers } from "./marker_place";
import { MARKER_FONT_PX, MARKER_ROW_PX } from "./marker_place";

/** More marker lines than this on one chart are drawn faint (charts.css .marker-line.is-dense). */
const DENSE_LINES = 24;
/** A label's distance from its line and from the plot's top (px). */
const LABEL_INSET_PX = 5;

export function MarkerLayer({
  placed,
  labels,
}: {
  placed: ReturnType<typeof placeMarkers>;
  /** Draw the labels (the small charts draw lines only). */
  labels: boolean;
}) {
  const scale = useXAxisScale();
  const area = usePlotArea();
  if (!scale || !area || placed.length === 0) return null;
  // One line per run's colour and pixel column: hundreds of changes (a knob dragged back and forth) would otherwise
  // draw hundreds of lines on a few pixels, a wall over the curves; their labels still get their own rows.
  const lined = new Set<string>();
  const drawn = placed.flatMap((m) => {
    if (m.x === undefined) return [];
    const px = scale(m.x);
    // Off the plot (a change after the last point on the step axis): the hover card and the data table name it.
    if (px === undefined || !Number.isFinite(px) || px < area.x - 0.5 || px > area.x + area.width + 0.5)
      return [];
    const column = `${Math.round(px)}\u0000${m.colour}`;
    const line = !lined.has(column);
    lined.add(column);
    return [{ m, px, line }];
  });
  // Many lines (a knob changed again and again: one every ~30 px of a wide chart) are drawn fainter, so the
  // curves stay readable through them; the hover card and the data table name every change.
  const dense = drawn.filter((d) => d.line).length > DENSE_LINES;
  // Lines in the runs' lines' layer (as recharts' reference lines), labels over everything in the labels' layer.
  return (
    <>
      <ZIndexLayer zIndex={DefaultZIndexes.line}>
        <g className="marker-layer">
          {drawn.map(({ m, px, line }) =>
            !line ? null : (
              <line
                key={m.key}
                className={dense ? "marker-line is-dense" : "marker-line"}
                x1={px}
                x2={px}
                y1={area.y}
                y2={area.y + area.height}
                stroke={m.colour}
                strokeDasharray={m.dash}
                strokeDashoffset={m.dashOffset}
              />
            ),
          )}
        </g>
      </ZIndexLayer>
      {labels && (
        <ZIndexLayer zIndex={DefaultZIndexes.label}>
          <g className="marker-labels">
            {drawn.map(({ m, px }) =>
              m.row < 0 ? null : (
                <text
                  key={m.key}
                  className="marker-label"
                  x={m.toLeft ? px - LABEL_INSET_PX : px + LABEL_INSET_PX}
                  y={area.y + LABEL_INSET_PX + m.row * MARKER_ROW_PX}
                  dy="0.71em"
                  textAnchor={m.toLeft ? "end" : "start"}
                  fontSize={MARKER_FONT_PX}
                  fill="var(--text)"
                >
                  {m.text}
                </text>
              ),
            )}
          </g>
        </ZIndexLayer>
      )}
    </>
  );
}
