/**
 * The PPO-style token table of a step (spec "PPO for language models", step 4): per completion token
 * log π_old, log π_θ (from the last update that trained on it), ρ_t = exp(log π_θ − log π_old), the advantage
 * Â_t the update used, whether the clip bound (math/ppo.ts clipBinds, the rule the loss kernel applies) and
 * the per-token KL with the run's estimator (math/kl.ts klPerToken, as PPO's KL-penalised reward); for PPO also
 * the pieces of Â_t as the step computed them (math/gae.ts): r_t, V_t, δ_t, A_t and the whitening constants.
 */
import { type KlEstimator, klPerToken } from "../../algorithms/math/kl";
import { clipBinds } from "../../algorithms/math/ppo";
import type { TokenText } from "./text";
import { TOKEN_COMPLETIONS, type TokenCompletion, type TokensInspect } from "./types";

/** What the token table needs from a step (a Rollout and a StepResult provide it). */
export interface TokenInspectInput {
  step: number;
  algo: string;
  /** Completion slots per row (S) and the completion mask [B·S] (1 on real tokens). */
  S: number;
  completionMask: ArrayLike<number>;
  prompts: readonly (readonly number[])[];
  /** [B] completion token ids (true length). */
  completions: readonly (readonly number[])[];
  /** [B] the run's rewards. */
  reward: ArrayLike<number>;
  /** [B·S] completion layout: log π_old, log π_ref, log π_θ (last update), Â_t. */
  logpOld: ArrayLike<number>;
  logpRef: ArrayLike<number>;
  logpTheta: ArrayLike<number>;
  advantages: ArrayLike<number>;
  epsLow: number;
  epsHigh: number;
  klEstimator: KlEstimator & ("k1" | "k3");
  /** Which update ρ comes from, in words. */
  ratioFrom: string;
  /**
   * REINFORCE: its baseline b this step (ReMax's: the mean of `baselines`), the baseline's decay α, the KL
   * coefficient β of its score, and whether b is ReMax's greedy answers' scores.
   */
  baseline?: { b: number; decay: number; beta: number; greedy: boolean };
  /** [B] ReMax: each completion's own b, its prompt's greedy answer's score. */
  baselines?: ArrayLike<number>;
  /** PPO: the pieces of its advantages (StepResult.gae: [B·S] arrays in the completion layout, constants). */
  gae?: {
    rewards: ArrayLike<number>;
    values: ArrayLike<number>;
    deltas: ArrayLike<number>;
    advantages: ArrayLike<number>;
    returns: ArrayLike<number>;
    beta: number;
    gamma: number;
    lam: number;
    whiten: { mean: number; scale: number } | null;
  };
}

/**
 * The token table of the first `limit` completions.
 * @throws RangeError on arrays that do not match the shape, or a non-finite log-prob on a real token.
 */
export function tokenInspect(
  x: TokenInspectInput,
  text: TokenText,
  limit = TOKEN_COMPLETIONS,
): TokensInspect {
  const B = x.completions.length;
  const { S } = x;
  const g = x.gae;
  for (const [name, a] of [
    ["logpTheta", x.logpTheta],
    ["advantages", x.advantages],
    ...(g
      ? ([
          ["gae.rewards", g.rewards],
          ["gae.values", g.values],
          ["gae.deltas", g.deltas],
          ["gae.advantages", g.advantages],
          ["gae.returns", g.returns],
        ] as const)
      : []),
  ] as const)
    if (a.length !== B * S) throw new RangeError(`${name} has ${a.length} entries, expected B·S = ${B * S}`);
  const shape = { B, T: S, mask: x.completionMask };
  const kl = klPerToken(x.logpOld, x.logpRef, shape, x.klEstimator);
  const completions: TokenCompletion[] = [];
  for (let b = 0; b < Math.min(limit, B); b++) {
    const tokens = x.completions[b].map((id, j) => {
      const i = b * S + j;
      const ratio = Math.exp(x.logpTheta[i] - x.logpOld[i]);
      const advantage = x.advantages[i];
      return {
        text: text.token(id),
        logpOld: x.logpOld[i],
        logp: x.logpTheta[i],
        logpRef: x.logpRef[i],
        ratio,
        advantage,
        clipped: clipBinds(ratio, advantage, x.epsLow, x.epsHigh),
        kl: kl[i],
        ...(g && {
          gae: {
            reward: g.rewards[i],
            value: g.values[i],
            delta: g.deltas[i],
            adv: g.advantages[i],
            ret: g.returns[i],
          },
        }),
      };
    });
    completions.push({
      prompt: text.prompt(x.prompts[b]),
      reward: x.reward[b],
      ...(x.baselines && { baseline: x.baselines[b] }),
      tokens,
    });
  }
  return {
    kind: "tokens",
    step: x.step,
    algo: x.algo,
    epsLow: x.epsLow,
    epsHigh: x.epsHigh,
    klEstimator: x.klEstimator,
    ratioFrom: x.ratioFrom,
    ...(x.baseline && { baseline: x.baseline }),
    ...(g && {
      gae: {
        beta: g.beta,
        gamma: g.gamma,
        lam: g.lam,
        whiten: g.whiten,
        tokens: Array.from(x.completionMask).filter((m) => m === 1).length,
      },
    }),
    completions,
    batch: B,
  };
}
