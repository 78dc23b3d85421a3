/**
 * A step's completions as the page's sample views: per token its text, log-prob and probability at the
 * sampling temperature τ, per-token KL (k1 = log π − log π_ref), entropy, and the advantage the update used
 * (when the algorithm has one per token), and the ratio ρ = π_θ/π_old where the update measured log π_θ (PPO:
 * its last epoch; REINFORCE: its update), null for the others (measuring it would cost another forward pass).
 */
import type { Rollout } from "../algorithms/rollout";
import { promptText } from "../rewards/task_rewards";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { SAMPLE_LIMIT, type SampleView, type TokenView } from "./protocol";

/**
 * Views of the first `limit` of a rollout's rows (default SAMPLE_LIMIT; GRPO/RLOO: whole groups of one prompt).
 * @param advantages per completion token [B·S] (completion layout), when the algorithm has them.
 * @param logpTheta log π_θ per completion token [B·S] as the update measured it (ratio = exp(log π_θ − log π_old)).
 * @param rows the rows to show, in order (StepResult.shownRows: best-of-n's picks); default all, first to last.
 */
export function sampleViews(
  r: Rollout,
  tok: Tokenizer,
  advantages?: ArrayLike<number>,
  logpTheta?: ArrayLike<number>,
  limit = SAMPLE_LIMIT,
  rows: readonly number[] = r.completions.map((_, b) => b),
): SampleView[] {
  const { S } = r.seq;
  const out: SampleView[] = [];
  for (const b of rows.slice(0, limit)) {
    const completion: TokenView[] = r.completions[b].map((id, j) => {
      const i = b * S + j;
      const logp = r.logpOld[i];
      return {
        text: tok.idToToken(id) ?? "<unk>",
        logp,
        prob: Math.exp(logp),
        advantage: advantages ? advantages[i] : null,
        ratio: logpTheta ? Math.exp(logpTheta[i] - logp) : null,
        kl: logp - r.logpRef[i],
        entropy: r.entropy[i],
      };
    });
    out.push({ prompt: promptText(r.prompts[b], tok), completion, reward: r.reward[b], gold: r.gold[b] });
  }
  return out;
}
