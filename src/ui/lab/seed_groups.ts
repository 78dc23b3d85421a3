/**
 * The seeds summary (SeedsSummary.tsx): runs with the same algorithm and settings ({@link configKey}) on at least
 * two seeds form a group; per group, the number of seeds and, for each metric, the mean ± sample standard
 * deviation (n − 1) across seeds of each run's mean over a common window: its last N points at or before the
 * group's smallest last step (N = {@link LAST_STEPS}, or fewer where a run has fewer points there), so a run
 * that trained further (the source of "Repeat on other seeds", which keeps its lead) is compared at the steps
 * its copies reached, not at its own end. Values are the raw per-step metrics the charts draw
 * (RunState.history, before smoothing). A difference between two groups smaller than their spread is not
 * evidence (Henderson et al. 2018, Deep Reinforcement Learning that Matters, arXiv 1709.06560).
 */

import { mean, std } from "../../algorithms/math/numerics";
import type { RunOrigin } from "../../lab/export/origin";
import type { MetricPoint, RunSpec } from "../../lab/protocol";
import { rewardOf, runSeed } from "../../lab/settings";
import { configKey } from "./seed_repeat";

/** Points each run's mean covers, ending at the group's smallest last step (fewer where a run has fewer there). */
export const LAST_STEPS = 10;

/** The KL the summary reads: the exact KL where every run of the group logs it, else k1 (objective/kl). */
export const EXACT_KL = "objective/kl_exact";
export const K1_KL = "objective/kl";

/** A run as the summary reads it (the lab store's RunState has it all). */
export interface SeedRun {
  spec: RunSpec;
  history: readonly MetricPoint[];
  comparison?: boolean;
  origin?: RunOrigin;
}

/** Mean ± sd across seeds of one metric (null: some run of the group lacks it). */
export interface Spread {
  mean: number;
  /** Sample standard deviation across the seeds' means (n − 1 in the denominator). */
  sd: number;
}

export interface SeedGroup {
  /** The group's first run's label without its seed mark ("PPO seed 1" → "PPO"), and every run's id. */
  label: string;
  runIds: string[];
  algo: RunSpec["algo"];
  seeds: number[];
  /** Points each run's mean covers (≤ {@link LAST_STEPS}). */
  n: number;
  /**
   * The common window, [first, last] step of the points the means cover: last = the group's smallest last step;
   * first = the earliest step any run's n points reach back to ("steps 91–100").
   */
  window: [number, number];
  /** The last step of its runs: [lowest, highest]. */
  steps: [number, number];
  reward: Spread | null;
  /** Only where the group optimises another reward than the gold scorer (else it is `reward`). */
  gold: Spread | null;
  kl: Spread | null;
  /** Which KL `kl` is. */
  klKey: typeof EXACT_KL | typeof K1_KL;
  entropy: Spread | null;
}

/** Mean and sample sd (n − 1, Bessel: numerics.ts std) of `xs` (n ≥ 2). */
export function meanSd(xs: readonly number[]): Spread {
  return { mean: mean(xs), sd: std(xs, true) };
}

/** The mean of `metric` over the last `n` points of `history` that have it finite; null when fewer than n have. */
export function lastMean(history: readonly MetricPoint[], metric: string, n: number): number | null {
  const xs: number[] = [];
  for (let i = history.length - 1; i >= 0 && xs.length < n; i--) {
    const v = history[i].metrics[metric];
    if (v !== undefined && Number.isFinite(v)) xs.push(v);
  }
  return xs.length === n && n > 0 ? xs.reduce((a, b) => a + b, 0) / n : null;
}

/**
 * The lab a summary reads runs against: its task, start model and seed, and the Pipeline model its runs start
 * from (the hand-off's name, src/ui/lab/pipeline_store.ts handedOff; null or absent: none).
 */
export interface SeedLab {
  task: string;
  model: string;
  seed: number;
  startModel?: string | null;
}

/**
 * The seed a run trained on, for grouping: its own or the lab's; an imported comparison run's own file's where
 * it trained on this lab's task and start model, the Pipeline hand-off included, and, unless that start is the
 * shipped SFT model, in an experiment of this lab's seed (a preset is initialised from it, and the Pipeline's
 * models are trained from a preset; else null: not comparable seed for seed).
 */
function seedOf(r: SeedRun, lab: SeedLab): number | null {
  if (!r.comparison) return runSeed(r.spec, lab);
  const o = r.origin;
  const sameStart = o?.model === lab.model && (o?.startModel ?? null) === (lab.startModel ?? null);
  // A preset start model is a fresh init from its experiment's seed, and a Pipeline hand-off is trained from one
  // (src/lab/pipeline.ts): that seed must be this lab's. Only the shipped SFT model is the same on every seed.
  const seeded = !(o?.model === "sft" && !o?.startModel);
  const sameInit = !seeded || (o?.experimentSeed ?? o?.seed) === lab.seed;
  return o?.seed !== undefined && o.task === lab.task && sameStart && sameInit ? o.seed : null;
}

/**
 * The groups of `runs` (in the lab's order) that hold one configuration on ≥ 2 seeds, each seed counted once
 * (the first run on it: a fork on its source's seed repeats its source's draws). Runs with no step yet are left
 * out until they have one; a group whose runs share no step (one's first point after another's last) is left out.
 */
export function seedGroups(runs: readonly SeedRun[], lab: SeedLab, last = LAST_STEPS): SeedGroup[] {
  const byKey = new Map<string, { run: SeedRun; seed: number }[]>();
  for (const run of runs) {
    const seed = seedOf(run, lab);
    if (seed === null || run.history.length === 0) continue;
    const key = configKey(run.spec);
    const list = byKey.get(key) ?? [];
    if (!list.some((x) => x.seed === seed)) list.push({ run, seed });
    byKey.set(key, list);
  }
  const out: SeedGroup[] = [];
  for (const list of byKey.values()) {
    if (list.length < 2) continue;
    const rs = list.map((x) => x.run);
    const ends = rs.map((r) => r.history[r.history.length - 1].step);
    // The common window ends at the group's smallest last step: every run is read at the steps all reached.
    const end = Math.min(...ends);
    const hs = rs.map((r) => r.history.filter((p) => p.step <= end));
    const n = Math.min(last, ...hs.map((h) => h.length));
    // A run whose first point is after another's last (an import of a late segment): no common steps to read.
    if (n === 0) continue;
    const spread = (metric: string) => {
      // Each run's last n points of the window, exactly: a non-finite value there makes the cell "—" (reaching
      // back past it would read that run at other steps than the window the table names).
      const means = hs.map((h) => lastMean(h.slice(-n), metric, n));
      return means.every((m): m is number => m !== null) ? meanSd(means) : null;
    };
    const exact = hs.every((h) => lastMean(h.slice(-n), EXACT_KL, n) !== null);
    const start = Math.min(...hs.map((h) => h[h.length - n].step));
    const first = rs[0].spec;
    out.push({
      label: first.label.replace(/ \(?seed \d+\)?$/, "") || first.label,
      runIds: rs.map((r) => r.spec.id),
      algo: first.algo,
      seeds: list.map((x) => x.seed),
      n,
      window: [start, end],
      steps: [end, Math.max(...ends)],
      reward: spread("reward"),
      gold: rewardOf(first.config) === "gold" ? null : spread("reward_gold"),
      kl: spread(exact ? EXACT_KL : K1_KL),
      klKey: exact ? EXACT_KL : K1_KL,
      entropy: spread("entropy"),
    });
  }
  return out;
}
