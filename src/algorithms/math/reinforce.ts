/**
 * REINFORCE for language models: the sequence-level policy-gradient loss with its per-token gradient, a
 * moving-average baseline, and ReMax's greedy baseline (../shared/docs/algorithms.md, "RLOO and REINFORCE").
 *
 * Sources: Williams 1992, "Simple Statistical Gradient-Following Algorithms" (REINFORCE with a baseline);
 * Ahmadian et al. 2024, "Back to Basics: Revisiting REINFORCE Style Optimization for Learning from Human
 * Feedback in LLMs" (a whole completion is one action); Li et al. 2023, "ReMax" (greedy-completion baseline).
 *
 * Shapes: B sequences, T token slots; per-token arrays [B, T] flattened row-major with a 0/1 mask
 * (masked.ts); per-sequence arrays [B].
 */
import { checkFiniteMasked, checkTokenShape, type TokenShape } from "./masked";
import { checkFinite, checkLength, mean, type Vec } from "./numerics";

/** Default decay α of the moving-average baseline (the spec names none; 0.9 averages over ~10 batches). */
export const REINFORCE_DEFAULTS = { decay: 0.9 } as const;

/** Sequence-level policy-gradient loss and its per-token gradient. */
export interface PgLoss {
  /** L = −(1/B) Σ_b A_b Σ_t logπ_θ(y_bt). */
  loss: number;
  /** dL/d logπ_θ(y_bt) = −A_b/B [B, T]; masked slots 0. */
  dlogp: Float64Array;
}

/**
 * REINFORCE loss −A_b·Σ_t logπ_θ(y_t) per completion (spec "RLOO and REINFORCE"), averaged over the B
 * completions; the gradient is the same −A_b/B on every counted token of completion b (the batch mean over
 * completions is the lab's choice; the spec gives the per-completion loss). Used by RLOO, REINFORCE and ReMax
 * when each batch is used once (μ = 1); with μ > 1 use ppo.ts's clipped surrogate with A_b on every token.
 * @param logp logπ_θ(y_t) [B, T] at τ, finite on counted tokens. @param advantages A [B], finite.
 * @throws RangeError on bad shapes or non-finite inputs.
 */
export function reinforceLossAndGrad(logp: Vec, advantages: Vec, shape: TokenShape): PgLoss {
  const { B, T, mask } = shape;
  checkTokenShape(shape, { logp });
  checkFiniteMasked("logp", logp, shape);
  checkLength("advantages", advantages, B);
  checkFinite("advantages", advantages);
  const dlogp = new Float64Array(B * T);
  let loss = 0;
  for (let b = 0; b < B; b++) {
    let seq = 0;
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      if (mask[i] !== 1) continue;
      seq += logp[i];
      dlogp[i] = -advantages[b] / B;
    }
    loss -= advantages[b] * seq;
  }
  return { loss: loss / B, dlogp };
}

/**
 * State of the moving-average baseline: an exponential moving average of batch-mean scores with Adam-style
 * bias correction. Immutable; reinforceAdvantages returns the next state.
 */
export interface MovingAverageBaseline {
  /** α ∈ [0, 1): weight of the past. */
  readonly decay: number;
  /** Raw EMA m_k = α_k m_{k−1} + (1 − α_k)·mean(R_k), m_0 = 0. */
  readonly ema: number;
  /**
   * The weight m_k holds, w_k = α_k w_{k−1} + (1 − α_k), w_0 = 0: 1 − α^k while α stays, and right when α
   * changes between batches (a knob turned mid-run), where 1 − α^k with the new α was not (b left the scores'
   * range: 250 for scores of 1). Absent in older checkpoints: 1 − α^k.
   */
  readonly weight?: number;
  /** k, batches seen. */
  readonly steps: number;
}

/** A fresh baseline (no batch seen: b = 0). @throws RangeError unless decay ∈ [0, 1). */
export function movingAverageBaseline(decay: number = REINFORCE_DEFAULTS.decay): MovingAverageBaseline {
  if (!(decay >= 0 && decay < 1)) throw new RangeError(`baseline decay must be in [0, 1), got ${decay}`);
  return { decay, ema: 0, weight: 0, steps: 0 };
}

/** The weight of the state's EMA (see MovingAverageBaseline.weight). */
function weightOf(s: MovingAverageBaseline): number {
  return s.weight ?? 1 - s.decay ** s.steps;
}

/**
 * Current baseline b = m_k / w_k (bias-corrected: m_k / (1 − α^k) at a constant α), or 0 before the first
 * batch. A weighted mean of the batch means seen, so always within their range.
 */
export function baselineValue(s: MovingAverageBaseline): number {
  const w = weightOf(s);
  return s.steps === 0 || w === 0 ? 0 : s.ema / w;
}

/**
 * REINFORCE advantages with a moving-average baseline (spec: A_i = R_i − b). Update rule: b comes from
 * earlier batches only (so it never depends on the scores it is subtracted from, and the gradient stays
 * unbiased); then m ← α m + (1 − α)·mean(R), k ← k + 1, b = m/(1 − α^k). With α = 0.9 the baseline follows
 * about the last 10 batches; the first batch uses b = 0.
 * @param scores R [B] (KL-penalised if wanted, as RLOO's score), finite.
 * @returns advantages [B], the baseline used, and the next state.
 * @throws RangeError on an empty or non-finite score array.
 */
export function reinforceAdvantages(
  scores: Vec,
  state: MovingAverageBaseline,
): { advantages: Float64Array; baseline: number; state: MovingAverageBaseline } {
  checkFinite("scores", scores);
  const m = mean(scores);
  const baseline = baselineValue(state);
  const advantages = Float64Array.from(scores, (r) => r - baseline);
  const next = {
    decay: state.decay,
    ema: state.decay * state.ema + (1 - state.decay) * m,
    weight: state.decay * weightOf(state) + (1 - state.decay),
    steps: state.steps + 1,
  };
  return { advantages, baseline, state: next };
}

/**
 * ReMax advantages (Li et al. 2023; spec "RLOO and REINFORCE", its ReMax bullet): A_i = R_i − R(greedy
 * completion of i's prompt).
 * @param scores R [B], k sampled completions per prompt laid out prompt by prompt (B = P·k).
 * @param greedyScores [P], the score of each prompt's greedy completion.
 * @throws RangeError when B is not a multiple of P or a score is not finite.
 */
export function remaxAdvantages(scores: Vec, greedyScores: Vec): Float64Array {
  const P = greedyScores.length;
  if (P === 0 || scores.length % P !== 0)
    throw new RangeError(`${scores.length} scores are not a whole number of completions for ${P} prompts`);
  checkFinite("scores", scores);
  checkFinite("greedyScores", greedyScores);
  const k = scores.length / P;
  return Float64Array.from(scores, (r, i) => r - greedyScores[Math.floor(i / k)]);
}
