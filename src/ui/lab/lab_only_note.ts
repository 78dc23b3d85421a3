/**
 * The note under a metric that TRL does not log (./MetricCard.tsx shows it).
 */
import { labOnly } from "./metric_info";

/**
 * The note on a card naming `metric` (one name, or several joined by ", " as the reward chart's "reward,
 * reward_gold"): which of them the lab logs and TRL does not; null when TRL logs them all.
 */
export function labOnlyNote(metric: string): string | null {
  const names = metric.split(", ");
  const own = names.filter(labOnly);
  if (!own.length) return null;
  return names.length === 1
    ? "the lab's own, not a TRL metric"
    : `${own.join(", ")}: the lab's own, not TRL's`;
}
