/**
 * Constrained RLHF (Safe RLHF): the Lagrangian score R − λc and the multiplier's dual ascent step
 * (../shared/docs/algorithms.md, "Constrained RLHF").
 *
 * Source: Dai et al. 2023, "Safe RLHF: Safe Reinforcement Learning from Human Feedback" (Lagrangian method).
 * The spec's plain form is used: the score is R − λc, not the paper's normalised (R − λc)/(1 + λ).
 *
 * Shapes: B completions; rewards R and costs c are [B], unitless scores from the reward and cost models.
 */
import { checkFinite, checkLength, checkNumber, mean, type Vec } from "./numerics";

/**
 * Score the policy optimises, R_i − λ·c_i, [B].
 * @param rewards R [B], finite. @param costs c [B], finite. @param lambda λ ≥ 0.
 * @throws RangeError on different lengths, non-finite values, or λ < 0.
 */
export function safeRlhfScores(rewards: Vec, costs: Vec, lambda: number): Float64Array {
  checkLength("costs", costs, rewards.length);
  checkFinite("rewards", rewards);
  checkFinite("costs", costs);
  checkNumber("lambda", lambda, 0);
  return Float64Array.from(rewards, (r, i) => r - lambda * costs[i]);
}

/**
 * Lagrange multiplier update after each step: λ ← max(0, λ + η·(mean(c) − d)) (spec; projected dual gradient
 * ascent): λ grows while the batch's mean cost exceeds the limit d and decays to 0 when the constraint holds.
 * The spec gives no defaults for λ_0, η or d; the caller sets them.
 * @param lambda current λ ≥ 0. @param costs c [B] of the batch, finite, B ≥ 1. @param costLimit d (finite).
 * @param lr η ≥ 0 (0 keeps λ).
 * @returns the new λ ≥ 0.
 * @throws RangeError on an empty or non-finite cost array, λ < 0, η < 0, or a non-finite d.
 */
export function lagrangeMultiplierUpdate(lambda: number, costs: Vec, costLimit: number, lr: number): number {
  checkNumber("lambda", lambda, 0);
  checkNumber("costLimit", costLimit);
  checkNumber("lr", lr, 0);
  checkFinite("costs", costs);
  return Math.max(0, lambda + lr * (mean(costs) - costLimit));
}

/**
 * The multiplier a step scores with under a PID Lagrangian's proportional term: λ = max(0, λ_I + K_P·(mean(c) − d)),
 * where λ_I is the integral {@link lagrangeMultiplierUpdate} keeps (from the steps before) and mean(c) is this
 * step's batch mean cost. The proportional term reacts to the current excess, not only its running sum, which
 * damps the oscillation of the cost around d that plain dual ascent shows (a pure integral controller acting
 * on a policy that responds with a lag). K_P = 0 gives λ = λ_I, the spec's rule.
 * Source: Stooke, Achiam & Abbeel 2020, "Responsive Safety in Reinforcement Learning by PID Lagrangian Methods",
 * Algorithm 2: its K_I·I is λ_I here, with K_I = η, updated after the step as the spec says (the paper adds the
 * batch to I first); no derivative term.
 * @param integral λ_I ≥ 0. @param excess mean(c) − d of the step's batch, in the cost's unit (finite).
 * @param kp K_P ≥ 0, multiplier per unit of cost.
 * @returns λ ≥ 0.
 * @throws RangeError on λ_I < 0, K_P < 0 or a non-finite excess.
 */
export function pidLagrangeMultiplier(integral: number, excess: number, kp: number): number {
  checkNumber("integral", integral, 0);
  checkNumber("excess", excess);
  checkNumber("kp", kp, 0);
  return Math.max(0, integral + kp * excess);
}
