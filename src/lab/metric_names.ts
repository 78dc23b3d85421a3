/**
 * Metric names that changed between lab versions, so that a history saved by an older version (IndexedDB,
 * a run file) reads under today's names and a resumed run's curve keeps one name:
 *   lr → learning_rate  every algorithm but PPO (2026-12-04: TRL's Trainer-based trainers log learning_rate;
 *                       PPOTrainer logs lr).
 * Values are not converted (reward_std was a population std before that date; PPO with the k3 penalty logged
 * k3 as objective/kl): those curves may show a step where old and new points meet.
 * Metrics a version logged that are no longer what their name says are dropped:
 *   objective/kl_exact  best-of-n (it logged an estimate from the scores under it; best-of-n has no exact KL, and
 *                       the KL chart's note says that none is drawn: src/ui/lab/metric_info.ts BON_KL_DOC).
 */
import type { MetricPoint } from "./protocol";

/** `history` with renamed metrics, and without dropped ones (the same array when nothing changed). Pure. */
export function currentMetricNames(algo: string, history: MetricPoint[]): MetricPoint[] {
  return renamed(algo, algo === "bon" ? withoutKlExact(history) : history);
}

/** `history` without objective/kl_exact (the same array when no point has it). */
function withoutKlExact(history: MetricPoint[]): MetricPoint[] {
  if (!history.some((p) => "objective/kl_exact" in p.metrics)) return history;
  return history.map((p) => {
    if (!("objective/kl_exact" in p.metrics)) return p;
    const { "objective/kl_exact": _, ...rest } = p.metrics;
    return { ...p, metrics: rest };
  });
}

function renamed(algo: string, history: MetricPoint[]): MetricPoint[] {
  if (algo === "ppo" || !history.some((p) => "lr" in p.metrics && !("learning_rate" in p.metrics)))
    return history;
  return history.map((p) => {
    if (!("lr" in p.metrics) || "learning_rate" in p.metrics) return p;
    const { lr, ...rest } = p.metrics;
    return { ...p, metrics: { ...rest, learning_rate: lr } };
  });
}
