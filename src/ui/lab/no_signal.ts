/**
 * "This run has no learning signal": the policy-gradient methods learn from differences in reward between
 * completions (GRPO and RLOO within a group, by frac_reward_zero_std; PPO and REINFORCE across the batch, by
 * reward_std). When every completion scores
 * the same — a randomly initialised model that never earns the task's reward, a reward threshold nobody
 * reaches — every reward advantage is 0 and only the KL term (if any) moves the policy (GRPO: Shao et al. 2024
 * §4.1; TRL logs it as frac_reward_zero_std). The run card says so instead of leaving a flat reward line
 * unexplained.
 */

import type { MetricPoint } from "../../lab/protocol";
import { sig } from "./numbers";

/** How many consecutive latest steps without signal before the card says so. */
export const NO_SIGNAL_STEPS = 5;

/** Exact KL to the start model (nats per completion) beyond which the note blames drift, not the reward. */
export const DRIFT_NATS = 5;

/**
 * A step without reward signal: every group had zero reward std (group methods), else the whole batch did.
 * Safe RLHF trains on its penalised score R − λc: its groups are flat when their scores are
 * (objective/frac_score_zero_std), whatever R does.
 */
function flat(p: MetricPoint): boolean {
  const groups = p.metrics["objective/frac_score_zero_std"] ?? p.metrics.frac_reward_zero_std;
  if (groups !== undefined) return groups >= 1;
  const std = p.metrics.reward_std;
  return std !== undefined && std <= 1e-12;
}

/**
 * The card's note, or null while the run has signal (or has fewer than `steps` steps, or logs no reward std).
 * Only for REWARD_LEARNERS (src/lab/algo_ids.ts; the caller checks).
 * @param history the run's metric points, oldest first.
 * @param randomInit whether the start model is a randomly initialised preset (nano, tiny, …) rather than SFT.
 */
export function noSignalNote(
  history: readonly MetricPoint[],
  randomInit: boolean,
  steps = NO_SIGNAL_STEPS,
): string | null {
  if (history.length < steps) return null;
  const last = history.slice(-steps);
  if (!last.every(flat)) return null;
  const rewards = last.map((p) => p.metrics.reward).filter((r) => r !== undefined);
  const same = rewards.length === steps && rewards.every((r) => r === rewards[0]);
  const group = last[0].metrics.frac_reward_zero_std !== undefined;
  const what = group ? "every completion in each group" : "every completion in the batch";
  const scored = same ? ` scored ${sig(rewards[0])}` : " scored the same as the others";
  const kl = last.at(-1)?.metrics["objective/kl_exact"];
  const cause = randomInit
    ? " A randomly initialised model almost never earns this task's reward; the shipped SFT model does."
    : kl !== undefined && kl > DRIFT_NATS
      ? ` The policy has moved far from its start (exact KL ${sig(kl)} nats): a learning rate too high for this model often ends here. Try a lower one.`
      : ` A higher temperature${group ? ", a larger group (G)" : ""} or a denser reward gives the policy something to learn from.`;
  return `No learning signal for the last ${steps} steps: ${what}${scored}, so the reward gives the policy nothing to learn from.${cause}`;
}
