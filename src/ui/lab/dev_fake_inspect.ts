/**
 * DEVELOPMENT ONLY (dev_fake.ts): synthetic Inspect views, so the inspectors can be looked at without a GPU.
 * Made up, but consistent the way the worker's are (ρ = exp(log π_θ − log π_old), the clip flag from ρ and
 * Â, group advantages from the group's scores, margins from the implicit rewards); the real ones come from
 * src/lab/inspect/.
 */
import type { InspectPair } from "../../lab/inspect/types";
import type { InspectView, RunSpec } from "../../lab/protocol";

const PROMPTS = ["Call me Ishmael. ", "The sea was ", "It was a grey morning; "];

/** The first prompts of a batch of `n` (at most the three above). */
const firstPrompts = (n: unknown, fallback: number) => PROMPTS.slice(0, Math.max(1, Number(n ?? fallback)));

/** A synthetic view of `spec`'s step `step` (r: uniform [0, 1) draws; words: the completions' vocabulary). */
export function fakeInspect(
  spec: RunSpec,
  step: number,
  r: () => number,
  words: readonly string[],
): InspectView {
  const algo = spec.algo;
  const c = spec.config;
  const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(r() * words.length)]);
  if (algo === "ppo" || algo === "reinforce") {
    const eps = Number(c.epsilon ?? 0.2);
    const epochs = Number(c.ppoEpochs ?? 4);
    const completions = firstPrompts(c.batchPrompts, 8).map((prompt) => ({
      prompt,
      reward: 2 * r() - 1,
      tokens: [...text(4 + Math.floor(r() * 4)).map((w) => ` ${w}`), "<eos>"].map((t) => {
        const logpOld = -3 * r();
        // REINFORCE updates once per batch (μ = 1): its ratio is 1 and never clips.
        const logp = algo === "ppo" ? logpOld + 0.4 * (r() - 0.5) : logpOld;
        const ratio = Math.exp(logp - logpOld);
        const advantage = 2 * (r() - 0.5);
        const clipped = (advantage > 0 && ratio > 1 + eps) || (advantage < 0 && ratio < 1 - eps);
        const logpRef = logpOld - 0.2 * (r() - 0.4);
        const lr = logpRef - logpOld; // log(π_ref/π_old)
        const kl = c.klEstimator === "k3" ? Math.expm1(lr) - lr : -lr;
        return { text: t, logpOld, logp, logpRef, ratio, advantage, clipped, kl };
      }),
    }));
    return {
      kind: "tokens",
      step,
      algo,
      epsLow: eps,
      epsHigh: eps,
      klEstimator: c.klEstimator === "k3" ? "k3" : "k1",
      ratioFrom:
        algo === "ppo"
          ? `the last of ${epochs} PPO epoch${epochs === 1 ? "" : "s"}`
          : "its single update (μ = 1)",
      completions,
      batch: Number(c.batchPrompts ?? 8),
    };
  }
  if (algo === "grpo" || algo === "rloo" || algo === "safe_rlhf") {
    const G = Number(c.numGenerations ?? 4);
    const groups = firstPrompts(c.batchPrompts, 8).map((prompt, g) => {
      // The last group scores alike: a zero-std group, as frac_reward_zero_std counts.
      const scores = Array.from({ length: G }, () => (g === 2 ? 1 : Math.round(r())));
      const mean = scores.reduce((a, b) => a + b, 0) / G;
      const std = Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / (G - 1));
      return {
        prompt,
        mean,
        std,
        zeroStd: std === 0,
        rows: scores.map((s) => {
          const completion = `${text(3).join(" ")} <eos>`;
          if (algo === "rloo") {
            const baseline = (mean * G - s) / (G - 1);
            return { completion, reward: s, score: s, baseline, advantage: s - baseline };
          }
          const byScale = {
            group: (s - mean) / (std + 1e-4),
            batch: (s - mean) / (0.5 + 1e-4),
            none: s - mean,
          };
          return { completion, reward: s, score: s, byScale };
        }),
      };
    });
    return {
      kind: "groups",
      step,
      algo,
      rule: algo === "rloo" ? "rloo" : "grpo",
      G,
      scaleRewards: algo === "rloo" ? null : ((c.scaleRewards as "group" | "batch" | "none") ?? "group"),
      // The worker's score formulas (src/lab/inspect/build.ts): here the scores are the rewards.
      scoreFormula: null,
      scoreNote: "fake backend: the score is the reward",
      batchStd: 0.5,
      eps: 1e-4,
      groups,
      totalGroups: Number(c.batchPrompts ?? 8),
    };
  }
  if (algo === "dpo") {
    const beta = Number(c.beta ?? 0.1);
    const side = () => {
      const words = text(3 + Math.floor(r() * 3));
      const logp = -2 * words.length * (0.5 + r());
      const logpRef = logp + (r() - 0.5);
      return { text: words.join(" "), length: words.length, logp, logpRef, reward: beta * (logp - logpRef) };
    };
    const pairs: InspectPair[] = firstPrompts(c.batchPairs, 8).map((prompt) => {
      const chosen = side();
      const rejected = side();
      const margin = chosen.reward - rejected.reward;
      const prob = 1 / (1 + Math.exp(-margin));
      return { prompt, chosen, rejected, margin, prob, loss: -Math.log(prob), flipped: r() < 0.25 };
    });
    return {
      kind: "pairs",
      step,
      algo,
      // The numbers above follow the sigmoid loss whatever the run's loss type (a fake).
      lossType: "sigmoid",
      beta,
      labelSmoothing: 0,
      simpoGamma: 0,
      pairs,
      totalPairs: Number(c.batchPairs ?? 8),
    };
  }
  return { kind: "none", step, algo, reason: `${algo} has no inspector in the fake backend.` };
}
