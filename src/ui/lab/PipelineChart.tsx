/**
 * A small live chart of a Pipeline stage (recharts): one or more series over the stage's steps, e.g. the SFT
 * loss, or the reward model's Bradley–Terry loss with its batch and held-out accuracies (then with a key; shares
 * such as accuracies on a right-hand [0, 1] axis).
 * Points are plotted raw, thinned to at most ~MAX_ROWS (a long stage has thousands of steps; the chart is a few
 * hundred pixels wide, and redrawing every point a few times a second would cost the page its frame rate).
 * Once it has points its header has the lab charts' "⤓ Image" (PNG or SVG, ./chart_image/pipeline_image.ts).
 */
import { useCallback } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { type PipelineImageInfo, savePipelineImage } from "./chart_image/pipeline_image";
import type { ImageKind } from "./chart_image/save_chart";
import { sig, tick, tickFormatter } from "./numbers";
import { SaveImageButton } from "./SaveImageButton";
import { niceDomain } from "./series";
import { thinRows } from "./thin_rows";

export interface PipelineSeries {
  key: string;
  name: string;
  colour: string;
  dashed?: boolean;
  /** Draw dots only (sparse series such as held-out evaluations). */
  dots?: boolean;
  /** On the right-hand axis, fixed to [0, 1] (accuracies next to a loss). */
  share?: boolean;
}

const TICK = { fontSize: 11, fill: "var(--muted)" };

/** Rows drawn at most (plus the sparse ones `thinRows` keeps). */
export const MAX_ROWS = 400;

export function PipelineChart({
  rows,
  series,
  label,
  image,
}: {
  rows: Record<string, number>[];
  series: PipelineSeries[];
  label: string;
  /** What its saved image says besides the plot (the series are this chart's). */
  image: Omit<PipelineImageInfo, "series">;
}) {
  const sparse = series.filter((s) => s.dots).map((s) => s.key);
  const drawn = thinRows(rows, MAX_ROWS, (r) => sparse.some((k) => r[k] !== undefined));
  // Round ticks covering the left axis's values (recharts' "auto" ticks could drop the top label).
  const left = series.filter((s) => !s.share);
  const y = niceDomain(rows.flatMap((r) => left.map((s) => r[s.key]).filter((v) => v !== undefined)));
  const shares = series.some((s) => s.share);
  const format = tickFormatter(y.ticks);
  const save = useCallback(
    (figure: Element, kind: ImageKind) => void savePipelineImage(figure, { ...image, series }, kind),
    [image, series],
  );
  return (
    <figure className="pipeline-figure" data-testid={`chart-${image.id}`}>
      <figcaption className="pipeline-chart-head">
        {series.length > 1 && (
          <p className="pipeline-key">
            {series.map((s) => (
              <span key={s.key}>
                <span
                  className={`pipeline-key-mark${s.dots ? " dot" : s.dashed ? " dashed" : ""}`}
                  style={{ "--key-colour": s.colour } as React.CSSProperties}
                />
                {s.name}
              </span>
            ))}
          </p>
        )}
        {rows.length > 0 && <SaveImageButton info={image} save={save} />}
      </figcaption>
      <div className="pipeline-chart" role="img" aria-label={label}>
        <ResponsiveContainer width="100%" height="100%">
          {/* Named by the role="img" box around it: no keyboard layer (it made the plot an unnamed Tab stop). */}
          <LineChart
            data={drawn}
            margin={{ top: 6, right: shares ? -4 : 8, bottom: 0, left: -12 }}
            accessibilityLayer={false}
          >
            <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
            <XAxis
              dataKey="step"
              type="number"
              domain={[0, "dataMax"]}
              allowDecimals={false}
              tickFormatter={tick}
              stroke="var(--muted)"
              tick={TICK}
            />
            <YAxis
              yAxisId="left"
              ticks={y.ticks}
              domain={y.domain}
              interval={0}
              tickFormatter={format}
              stroke="var(--muted)"
              tick={TICK}
              width={Math.max(36, 7 * Math.max(...y.ticks.map((t) => format(t).length)) + 22)}
            />
            {shares && (
              <YAxis
                yAxisId="share"
                orientation="right"
                domain={[0, 1]}
                ticks={[0, 0.5, 1]}
                stroke="var(--muted)"
                tick={TICK}
                width={32}
              />
            )}
            <Tooltip
              formatter={(v) => sig(Number(v), 4)}
              labelFormatter={(x) => `step ${x}`}
              contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", fontSize: 12 }}
            />
            {series.map((s) => (
              <Line
                key={s.key}
                yAxisId={s.share ? "share" : "left"}
                dataKey={s.key}
                name={s.name}
                stroke={s.colour}
                strokeWidth={s.dots ? 0 : 2}
                strokeDasharray={s.dashed ? "5 4" : undefined}
                dot={s.dots ? { r: 3, fill: s.colour } : false}
                isAnimationActive={false}
                connectNulls
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
