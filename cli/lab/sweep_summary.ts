/**
 * The summary of a `lab train` sweep (cli/lab/train.ts): per combination of settings, over its seeds, the mean
 * and sample standard deviation (n − 1; none for one seed) of each run's own mean over its last N steps, for
 * reward, reward_gold, objective/kl, objective/kl_exact (where the algorithm logs it) and entropy. As a table
 * for the terminal, and as CSV or JSON (`--summary FILE.csv|json`).
 */
import { mean, std } from "../../src/algorithms/math/numerics";
import type { SettingValue } from "../../src/lab/protocol";

/** The metrics summarised, by TRL's names (objective/kl_exact: the exact per-token KL the lab also logs). */
export const SUMMARY_METRICS = [
  "reward",
  "reward_gold",
  "objective/kl",
  "objective/kl_exact",
  "entropy",
] as const;

/** One finished run of a sweep. */
export interface SweepRun {
  /** The combination's name (GridPoint.name; "" for a sweep over seeds alone) and its varied settings. */
  name: string;
  varied: Record<string, SettingValue>;
  seed: number;
  /** The step's metrics, step 1 first. */
  rows: readonly Record<string, number>[];
}

/** Mean and sample standard deviation (n − 1; null for n < 2) across seeds of one metric. */
export interface Spread {
  mean: number;
  sd: number | null;
}

/** One combination's line of the summary. */
export interface SummaryLine {
  name: string;
  varied: Record<string, SettingValue>;
  seeds: number[];
  /** Steps each run's mean is over (the last min(N, run length)). */
  last: number;
  /** Per metric that every run of the combination logged. */
  metrics: Partial<Record<(typeof SUMMARY_METRICS)[number], Spread>>;
}

/** The mean of `metric` over the last `last` rows that hold a finite value of it; null when none does. */
export function lastMean(
  rows: readonly Record<string, number>[],
  metric: string,
  last: number,
): number | null {
  const xs = rows
    .slice(-last)
    .map((r) => r[metric])
    .filter((x) => typeof x === "number" && Number.isFinite(x));
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** Mean and sample standard deviation (n − 1, Bessel: numerics.ts std) of `xs` (n ≥ 1; sd null for one). */
export function spread(xs: readonly number[]): Spread {
  return { mean: mean(xs), sd: xs.length < 2 ? null : std(xs, true) };
}

/**
 * The summary of `runs` (any order; grouped by name, in order of first appearance): per combination, across its
 * seeds, the spread of each run's mean over its last `last` steps. A metric some run of it did not log is left out.
 */
export function summarise(runs: readonly SweepRun[], last: number): SummaryLine[] {
  const groups = new Map<string, SweepRun[]>();
  for (const r of runs) groups.set(r.name, [...(groups.get(r.name) ?? []), r]);
  return [...groups.values()].map((g) => {
    const metrics: SummaryLine["metrics"] = {};
    for (const m of SUMMARY_METRICS) {
      const means = g.map((r) => lastMean(r.rows, m, last));
      if (means.every((x) => x !== null)) metrics[m] = spread(means as number[]);
    }
    const steps = Math.min(last, ...g.map((r) => r.rows.length));
    return { name: g[0].name, varied: g[0].varied, seeds: g.map((r) => r.seed), last: steps, metrics };
  });
}

const fixed = (x: number) => (Math.abs(x) >= 1000 ? x.toPrecision(4) : x.toFixed(3));
const cell = (s: Spread | undefined) => (s ? `${fixed(s.mean)} ± ${s.sd === null ? "–" : fixed(s.sd)}` : "–");

/** The summary as a text table: settings, n seeds, then "mean ± sd" per metric (– where there is none). */
export function summaryTable(lines: readonly SummaryLine[]): string {
  const head = ["settings", "n", ...SUMMARY_METRICS];
  const rows = lines.map((l) => [
    l.name || "(as given)",
    String(l.seeds.length),
    ...SUMMARY_METRICS.map((m) => cell(l.metrics[m])),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  const last = lines.length ? Math.max(...lines.map((l) => l.last)) : 0;
  return [
    `mean ± sd across seeds of each run's mean over its last ${last} steps`,
    fmt(head),
    ...rows.map(fmt),
  ].join("\n");
}

/**
 * The summary as CSV: one row per combination; a column per varied setting, `seeds` (space-separated), `n`,
 * `last_steps`, then `<metric>_mean` and `<metric>_sd` (empty where there is none).
 */
export function summaryCsv(lines: readonly SummaryLine[]): string {
  const keys = [...new Set(lines.flatMap((l) => Object.keys(l.varied)))];
  const head = [
    ...keys,
    "seeds",
    "n",
    "last_steps",
    ...SUMMARY_METRICS.flatMap((m) => [`${m}_mean`, `${m}_sd`]),
  ];
  const rows = lines.map((l) => [
    ...keys.map((k) => String(l.varied[k] ?? "")),
    l.seeds.join(" "),
    String(l.seeds.length),
    String(l.last),
    ...SUMMARY_METRICS.flatMap((m) => [String(l.metrics[m]?.mean ?? ""), String(l.metrics[m]?.sd ?? "")]),
  ]);
  return `${[head, ...rows].map((r) => r.join(",")).join("\n")}\n`;
}
