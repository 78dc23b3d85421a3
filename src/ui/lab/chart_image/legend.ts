/**
 * What a saved chart image says besides its plot (./compose.ts draws it): the legend of the runs it draws —
 * each visible run's name, colour, shape and line style as on the page — the footer of the settings it was
 * drawn with, and the file's name. Pure: the tests and the page build the same text.
 */
import { labVersionText } from "../../../lab/build_info";
import { slug } from "../../../lab/export/trl_py";
import type { ChartLine } from "../chart_types";
import { lineDash } from "../line_dash";
import type { RunShape } from "../run_shape";

/** One legend entry: a run (its shape and colour), or a line style shared by every run ("gold", dashed). */
export interface ImageLegendEntry {
  label: string;
  /** The run's colour as the page writes it (a CSS colour or var(--run-N)); a style entry: null (text colour). */
  colour: string | null;
  /** The run's shape (run entries only). */
  shape?: RunShape;
  /** Hollow shape: the run's lines are dotted (its colour is another run's too). */
  hollow: boolean;
  /** The SVG dash pattern of its line (undefined: solid). */
  dash?: string;
  /** Drawn as dots without a line (a sparse series, such as the Pipeline's held-out accuracies): its shape only. */
  dotsOnly?: boolean;
}

/**
 * The legend of a chart image: one entry per run drawn (in the lines' order; runs in `hidden` left out), then
 * the line styles the chart uses beside solid ones ("gold", dashed), each once with its dash.
 */
export function imageLegend(
  lines: readonly ChartLine[],
  hidden: readonly string[] = [],
  solidName?: string,
): ImageLegendEntry[] {
  const shown = lines.filter((l) => !hidden.includes(l.runId));
  const seen = new Set<string>();
  const runs: ImageLegendEntry[] = [];
  for (const l of shown) {
    if (seen.has(l.runId)) continue;
    seen.add(l.runId);
    // A run's entry is drawn with its solid line's look (dotted where its colour repeats).
    runs.push({
      label: l.runLabel,
      colour: l.colour,
      shape: l.shape ?? "circle",
      hollow: l.dotted === true,
      dash: lineDash({ dotted: l.dotted }),
    });
  }
  const styles = new Map<string, ImageLegendEntry>();
  for (const l of shown)
    if (l.dashed && l.name && !styles.has(l.name))
      styles.set(l.name, { label: l.name, colour: null, hollow: false, dash: lineDash({ dashed: true }) });
  const solid: ImageLegendEntry[] =
    styles.size > 0 ? [{ label: solidName ?? "solid", colour: null, hollow: false }] : [];
  return [...runs, ...solid, ...styles.values()];
}

/** The settings a chart was drawn with, as the footer names them. */
export interface ImageSettings {
  task: string;
  /** The start model ("sft", "nano", …). */
  model: string;
  seed: number;
  /** EMA weight in [0, 0.99]; 0 is raw values. */
  smoothing: number;
  /** The KL estimator's name as the KL select shows it ("k1"). */
  klEstimator: string;
}

/**
 * The footer line: "task · start model · seed · smoothing w · KL estimator · RLHF Playground 0.1.0 (e82316e)" (the
 * build that drew it, as the page's footer names it: build_info.ts).
 */
export function imageFooter(s: ImageSettings): string {
  return [
    `task ${s.task}`,
    `start model ${s.model}`,
    `seed ${s.seed}`,
    `smoothing ${s.smoothing.toFixed(2)}`,
    `KL estimator ${s.klEstimator}`,
    labVersionText(),
  ].join(" · ");
}

/** The title line: the chart's title, its unit, and what x is ("Reward vs step"). */
export function imageTitle(title: string, unit: string | undefined, xLabel: string): string {
  return `${title}${unit ? ` (${unit})` : ""} vs ${xLabel}`;
}

/** The file's name, as the run exports name theirs (export_run.ts): "reward-arithmetic-seed0-step6.png". */
export function imageFileName(chartId: string, task: string, seed: number, step: number, ext: "png" | "svg") {
  return `${slug(chartId)}-${slug(task)}-seed${seed}-step${step}.${ext}`;
}
