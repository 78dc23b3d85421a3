/**
 * Metric names that changed between lab versions, so that a history saved by an older version (IndexedDB,
 * a run file) reads under today's names and a resumed run's curve keeps one name:
 *   lr → learning_rate  every algorithm but PPO (2026-12-04: TRL's Trainer-based trainers log learning_rate;
 *                       PPOTrainer logs lr).
 * Values are not converted (reward_std was a population std before that date; PPO with the k3 penalty logged
 * k3 as objective/kl): those curves may show a step where old and new points meet.
 */
import type { MetricPoint } from "./protocol";

/** `history` with renamed metrics (the same array when nothing changed). Pure. */
export function currentMetricNames(algo: string, history: MetricPoint[]): MetricPoint[] {
  if (algo === "ppo" || !history.some((p) => "lr" in p.metrics && !("learning_rate" in p.metrics)))
    return history;
  return history.map((p) => {
    if (!("lr" in p.metrics) || "learning_rate" in p.metrics) return p;
    const { lr, ...rest } = p.metrics;
    return { ...p, metrics: { ...rest, learning_rate: lr } };
  });
}
