/**
 * "More metrics": one small chart per algorithm-specific diagnostic that at least one run reports (clip
 * ratios, value loss, lengths, DPO margins/accuracies, zero-std groups, grad norm, tokens/s), and a table of
 * every metric of every run at its latest step (TRL names, full precision in data-value).
 */
import { type ReactNode, useMemo, useRef } from "react";
import { csvName } from "../../lab/export/metrics";
import type { MetricPoint } from "../../lab/protocol";
import { roundedSetting } from "../../lab/setting_text";
import type { RunState } from "../lab_store";
import { metricCellNote, metricDoc, metricUnit } from "./glossary";
import { Hint } from "./Hint";
import { MetricCard } from "./MetricCard";
import { type ChartLine, type ChartMarkers, MetricChart } from "./MetricChart";
import { MiniLegend } from "./MiniLegend";
import { MORE_METRICS } from "./metric_info";
import { markersFor, moreChartLines } from "./more_lines";
import { sig } from "./numbers";
import { keepIfSame } from "./stable";
import { useMarkers, useVisibleRuns } from "./visible_runs";

/** A chart's id from its metric ("clip_ratio/region_mean" → "clip_ratio-region_mean"). */
const chartId = (key: string) => key.replace(/[^a-z0-9]+/gi, "-");

/** Points scanned per run for metric names (algorithms report the same names every step). */
const SCAN = 20;

function reportedKeys(histories: readonly (readonly MetricPoint[])[]): Set<string> {
  const keys = new Set<string>();
  for (const h of histories)
    for (const p of h.slice(-SCAN)) for (const k of Object.keys(p.metrics)) keys.add(k);
  return keys;
}

export function MoreMetrics() {
  const visible = useVisibleRuns();
  const keys = useMemo(() => reportedKeys(visible.map((v) => v.run.history)), [visible]);
  const markers = useMarkers(visible);
  // Each chart's lines keep their identity while their runs' histories are unchanged (stable.ts), so a step of
  // one run redraws only the diagnostics it reports.
  // Its legend element and its markers too (a new element or list would redraw the memoised chart).
  const last = useRef(
    new Map<string, { lines: readonly ChartLine[]; legend: ReactNode; markers: readonly ChartMarkers[] }>(),
  );
  const charts = useMemo(() => {
    const next = MORE_METRICS.filter((m) => keys.has(m.key)).map((m) => {
      const before = last.current.get(m.key);
      const lines = keepIfSame(before?.lines, moreChartLines(m, visible));
      const legend =
        before && before.lines === lines ? (
          before.legend
        ) : (
          <MiniLegend key={m.key} lines={lines} id={chartId(m.key)} solid={m.companion?.solidName} />
        );
      return { info: m, lines, legend, markers: keepIfSame(before?.markers, markersFor(lines, markers)) };
    });
    last.current = new Map(next.map((c) => [c.info.key, c]));
    return next;
  }, [visible, keys, markers]);
  return (
    <section className="more-metrics" aria-labelledby="more-title" data-testid="more-metrics">
      <h2 id="more-title" className="section-title">
        More metrics
      </h2>
      {charts.length === 0 ? (
        <p className="muted">
          Algorithm diagnostics (clip ratios, value loss, DPO margins, …) appear here once runs report them.
        </p>
      ) : (
        <div className="small-charts">
          {charts.map(({ info: m, lines, legend, markers: own }) => (
            <MetricChart
              key={m.key}
              id={chartId(m.key)}
              title={m.title}
              unit={m.unit}
              doc={m.doc}
              metric={m.key}
              lines={lines}
              markers={own}
              height={152}
              compact
              yFloor={m.floor}
              extra={legend}
            />
          ))}
        </div>
      )}
      <LatestTable runs={visible.map((v) => v.run)} />
    </section>
  );
}

/** Metrics that echo a setting: written as its card writes it (learning rates 1e-4 and 3e-5 alike). */
const SETTING_METRICS: ReadonlySet<string> = new Set(["learning_rate", "lr", "kl_coef"]);

/** Every metric at each run's latest step. */
function LatestTable({ runs }: { runs: RunState[] }) {
  const last = runs.map((r) => r.history.at(-1));
  const names = [...new Set(last.flatMap((p) => (p ? Object.keys(p.metrics) : [])))].sort();
  // Each row's unit, none where it would repeat the name (tokens/s); where the runs reporting a name give it
  // different units (KTO's kl per completion, GRPO's per token), each cell says its own.
  const unitOf = (n: string, i: number) => {
    const u = metricUnit(n, runs[i].spec.algo);
    return u === csvName(n) ? undefined : u; // tokens_step (tokens) says it; tokens/s would repeat itself
  };
  const units: Record<string, string | undefined> = {};
  const perCell = new Set<string>();
  for (const n of names) {
    const own = new Set(runs.flatMap((_, i) => (last[i]?.metrics[n] === undefined ? [] : [unitOf(n, i)])));
    if (own.size > 1) perCell.add(n);
    else units[n] = [...own][0];
  }
  return (
    <details className="latest">
      <summary>All metrics at the latest step ({names.length} metrics)</summary>
      <div className="table-scroll">
        <table className="results metrics-table" data-testid="metrics-table">
          <thead>
            <tr>
              <th>Metric (TRL name)</th>
              {runs.map((r, i) => (
                <th key={r.spec.id} className="num">
                  {r.spec.label} <span className="muted">@ {last[i]?.step ?? "—"}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((name) => (
              <tr key={name}>
                <td className="mono">
                  <Hint
                    testId={`metric-name-${name}`}
                    card={
                      <MetricCard
                        metric={name}
                        shownAs={csvName(name)}
                        doc={metricDoc(name) ?? "Reported by the algorithm; no definition yet."}
                      />
                    }
                  >
                    {/* The CSV's column name: the per-step counters read samples_step and tokens_step there,
                        beside the cumulative axis columns. */}
                    {csvName(name)}
                  </Hint>
                  {units[name] && <span className="muted"> ({units[name]})</span>}
                </td>
                {runs.map((r, i) => {
                  const v = last[i]?.metrics[name];
                  const unit = v !== undefined && perCell.has(name) ? unitOf(name, i) : undefined;
                  const note = v === undefined ? undefined : metricCellNote(name, r.spec.algo);
                  return (
                    <td
                      key={r.spec.id}
                      className="num mono"
                      data-run={r.spec.id}
                      data-metric={name}
                      data-value={v}
                    >
                      {v === undefined ? "—" : SETTING_METRICS.has(name) ? roundedSetting(v, 4) : sig(v, 4)}
                      {unit && <span className="muted"> {unit}</span>}
                      {note && <span className="muted"> ({note})</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
