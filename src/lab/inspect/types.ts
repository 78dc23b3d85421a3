/**
 * What the "Inspect" view shows of a run's latest step (part of the worker protocol, RunUpdate.inspect):
 * one discriminated union per kind of algorithm, structured-clone friendly and capped in size.
 *   tokens  PPO, REINFORCE: a per-token table (log π_old, log π_θ, ratio ρ_t, advantage Â_t, clipped, KL);
 *           PPO also r_t, V_t, δ_t and A_t, how its Â_t was made.
 *   groups  GRPO, Safe RLHF, RLOO (G completions per prompt): scores → group mean/std → advantages.
 *   pairs   DPO: chosen/rejected with their sequence log-probs, implicit rewards, margin, σ(margin), loss.
 *   none    no inspector for this algorithm (or its data could not be built): `reason` says why.
 * Builders: ./tokens.ts, ./groups.ts, ./pairs.ts, dispatched by ./build.ts. Symbols as in the papers; log-probs
 * and KL in nats.
 */

/** One completion token in the PPO-style table. */
export interface TokenRow {
  /** The token as text (special tokens like "<eos>" as they are). */
  text: string;
  /** log π_old(y_t) at τ: the policy that sampled the batch (nats). */
  logpOld: number;
  /** log π_θ(y_t) at τ in the last update that trained on the token (nats). */
  logp: number;
  /** log π_ref(y_t) at τ: the reference policy's, which the KL column compares log π_old with (nats). */
  logpRef: number;
  /** ρ_t = exp(log π_θ − log π_old). */
  ratio: number;
  /** Â_t, the advantage the update used. */
  advantage: number;
  /** The clip binds (no gradient from this token): Â > 0 and ρ > 1 + ε_high, or Â < 0 and ρ < 1 − ε_low. */
  clipped: boolean;
  /** Per-token KL k_t = estimator(log π_old, log π_ref) (nats), the estimator named in the view. */
  kl: number;
  /** PPO: how Â_t was made ({@link TokensInspect.gae}); absent for REINFORCE. */
  gae?: TokenGae;
}

/** PPO's advantage of one token, piece by piece (GAE, Schulman et al. 2016, eq. 16; spec step 2–3). */
export interface TokenGae {
  /** r_t = −β·k_t, plus the completion's reward R on its last token. */
  reward: number;
  /** V_t, the value model's estimate at rollout. */
  value: number;
  /** δ_t = r_t + γ·V_{t+1} − V_t (V after the last token = 0). */
  delta: number;
  /** A_t = δ_t + γλ·A_{t+1}, before whitening. */
  adv: number;
  /** G_t = A_t + V_t, the return the value loss regresses V_t onto. */
  ret: number;
}

export interface TokenCompletion {
  prompt: string;
  /** The run's reward R(x, y) of the whole completion. */
  reward: number;
  /** REINFORCE with ReMax's greedy baseline: b of this completion, its prompt's greedy answer's score. */
  baseline?: number;
  tokens: TokenRow[];
}

export interface TokensInspect {
  kind: "tokens";
  step: number;
  /** Algorithm id (registry), e.g. "ppo". */
  algo: string;
  epsLow: number;
  epsHigh: number;
  /** Estimator of the KL column: "k1" = log π_old − log π_ref, "k3" = (r − 1) − log r with r = π_ref/π_old. */
  klEstimator: "k1" | "k3";
  /** Which update ρ comes from, in words, e.g. "the last of 4 PPO epochs". */
  ratioFrom: string;
  /**
   * PPO: the constants of its advantages: β (of r_t = −β·k_t), γ, λ, and the batch whitening Â = (A − mean)/scale
   * over all the batch's completion tokens (null: not whitened, Â = A); tokens counts them. Absent for REINFORCE.
   */
  gae?: {
    beta: number;
    gamma: number;
    lam: number;
    whiten: { mean: number; scale: number } | null;
    tokens: number;
  };
  /**
   * REINFORCE: Â = s − b on every token of a completion, b the moving-average baseline this step used
   * (earlier batches' mean score, decay α; 0 at the first step) or, `greedy`, each prompt's greedy answer's
   * score (ReMax: TokenCompletion.baseline; b here their mean), and s = R − β·Σₜ k1ₜ (s = R when β = 0).
   */
  baseline?: { b: number; decay: number; beta: number; greedy: boolean };
  /** The first completions of the batch (at most TOKEN_COMPLETIONS). */
  completions: TokenCompletion[];
  /** Completions in the batch. */
  batch: number;
}

/** One completion of a group. */
export interface GroupRow {
  /** The completion as text. */
  completion: string;
  /** R_i, the run's reward. */
  reward: number;
  /** The score the advantage is computed from (R_i, or R_i − β·KL for RLOO, R_i − λ·c for Safe RLHF). */
  score: number;
  /** GRPO rule: A_i under each `scale_rewards` (group, batch, none); the run's own is `InspectGroups.scaleRewards`. */
  byScale?: { group: number; batch: number; none: number };
  /** RLOO rule: the leave-one-out baseline (1/(G−1)) Σ_{j≠i} s_j and A_i = s_i − baseline. */
  baseline?: number;
  advantage?: number;
  /** |o_i|, the completion's tokens in the loss (its EOS included). */
  length: number;
  /**
   * GRPO rule: the weight w_i of each of the completion's tokens in the batch loss under each `loss_type`
   * (math/grpo.ts aggregationWeights); a token's gradient is ∝ w_i·A_i. The run's own is `GroupsInspect.loss`.
   */
  byLoss?: { grpo: number; dapo: number; dr_grpo: number };
}

export interface InspectGroup {
  prompt: string;
  /** Mean and sample std (divisor G − 1) of the group's scores. */
  mean: number;
  std: number;
  /**
   * All rewards R equal: no reward signal (frac_reward_zero_std counts these). The advantages are then 0, unless
   * the scores fold in a penalty that still differs (RLOO's −β·KL, Safe RLHF's −λ·cost): `std` > 0.
   */
  zeroStd: boolean;
  rows: GroupRow[];
}

export interface GroupsInspect {
  kind: "groups";
  step: number;
  algo: string;
  /** "grpo": A = (s − mean)/(std + eps) with scale_rewards; "rloo": A = s − mean of the others. */
  rule: "grpo" | "rloo";
  /** G, completions per prompt. */
  G: number;
  /** GRPO rule: the run's own scale_rewards. */
  scaleRewards: "group" | "batch" | "none" | null;
  /** How the score is made from the reward, short, e.g. "R − β·Σₜ k1ₜ" (null: the score is R). */
  scoreFormula: string | null;
  /** What the formula's symbols are, with their values this step, e.g. "β = 0.05, k1ₜ = log π_old − log π_ref". */
  scoreNote: string | null;
  /** Sample std of all the batch's scores (`batch` scaling divides by it + eps). */
  batchStd: number;
  /** The std's ε (TRL's 1e-4). */
  eps: number;
  /** The first groups (at most GROUP_ROWS completions in all). */
  groups: InspectGroup[];
  /** Groups (prompts) in the batch. */
  totalGroups: number;
  /**
   * GRPO rule: the run's loss_type and the constants of the weights: B completions in the batch, n tokens in
   * all, L = max_completion_length (the completion slots sampled).
   */
  loss?: {
    lossType: "grpo" | "dapo" | "dr_grpo";
    B: number;
    n: number;
    L: number;
    /** The run's max tokens setting, when known: L is less when the model's context cuts it. */
    maxNewTokens?: number;
  };
}

/** One completion of a preference pair. */
export interface PairSide {
  text: string;
  /** |y|, completion tokens. */
  length: number;
  /** log π_θ(y|x), the sum of the completion's token log-probs at τ before the update (nats). */
  logp: number;
  /** log π_ref(y|x) (nats); null for reference-free SimPO. */
  logpRef: number | null;
  /** The implicit reward the loss compares (β·(log π_θ − log π_ref) for sigmoid/hinge). */
  reward: number;
}

export interface InspectPair {
  prompt: string;
  chosen: PairSide;
  rejected: PairSide;
  /** r_w − r_l. */
  margin: number;
  /** σ(margin): the implicit Bradley–Terry probability that y_w ≻ y_l. */
  prob: number;
  /** This pair's loss under the run's loss type. */
  loss: number;
  /** The simulated annotator flipped this label: the gold scorer prefers the rejected completion. */
  flipped: boolean;
}

export interface PairsInspect {
  kind: "pairs";
  step: number;
  algo: string;
  lossType: "sigmoid" | "hinge" | "ipo" | "simpo";
  beta: number;
  labelSmoothing: number;
  simpoGamma: number;
  /** The first pairs (at most PAIR_ROWS). */
  pairs: InspectPair[];
  totalPairs: number;
}

export interface NoInspect {
  kind: "none";
  step: number;
  algo: string;
  /** Why there is nothing to inspect, in words. */
  reason: string;
}

export type InspectView = TokensInspect | GroupsInspect | PairsInspect | NoInspect;

/**
 * Payload caps (the view is sent with every step): completions in the token table, completions over all
 * groups, groups, pairs. They hold every lesson's whole batch (at most 32 completions or pairs); the page
 * pages through them.
 */
export const TOKEN_COMPLETIONS = 32;
export const GROUP_ROWS = 128;
export const GROUP_MAX = 32;
export const PAIR_ROWS = 32;
