/**
 * The inspector data of a run's latest step, built in the worker (lazily, only for the step the page is sent)
 * from the StepResult and the settings the step ran with. Which view fits which algorithm:
 *   ppo, reinforce          tokens  (per-token ratio, advantage, clip, KL)
 *   grpo, safe_rlhf, rloo   groups  (G completions per prompt)
 *   dpo                     pairs   (chosen/rejected)
 *   anything else           none, with the reason
 * Never throws: a builder's error becomes a "none" view that says what went wrong.
 */
import type { GrpoLossType } from "../../algorithms/math/grpo";
import type { KlEstimator } from "../../algorithms/math/kl";
import type { StepResult } from "../../algorithms/run";
import { errorMessage as message } from "../../util/errors";
import type { SettingValue } from "../protocol";
import { groupInspect } from "./groups";
import { pairInspect } from "./pairs";
import type { TokenText } from "./text";
import { tokenInspect } from "./tokens";
import type { InspectView } from "./types";

/** Why an algorithm has no inspector. */
const NO_INSPECTOR: Record<string, string> = {
  bon: "Best-of-n does not train: its picked completions are in the Samples panel.",
  expert_iteration:
    "Expert iteration fine-tunes on the kept completions with cross-entropy: no ratio, advantage or pair to inspect.",
  kto: "KTO trains on unpaired examples; it has no inspector yet.",
  orpo: "ORPO has no inspector yet.",
};

/** The score formula of a group algorithm whose score is not the reward itself, and its symbols' values. */
function scoreText(
  algo: string,
  config: Record<string, unknown>,
  lambda: number | undefined,
): { scoreFormula: string | null; scoreNote: string | null } {
  const v = (x: number) => String(Number(x.toPrecision(3)));
  const beta = Number(config.beta ?? 0);
  if (algo === "safe_rlhf") {
    const c =
      config.cost === "positive_words" ? "positive words in the completion" : "completion length (tokens)";
    return {
      scoreFormula: "R − λ·c",
      scoreNote: `c = ${c}, λ = ${lambda === undefined ? "?" : v(lambda)} this step`,
    };
  }
  if (algo === "rloo" && beta > 0)
    return { scoreFormula: "R − β·Σₜ k1ₜ", scoreNote: `β = ${v(beta)}, k1ₜ = log π_old − log π_ref` };
  return { scoreFormula: null, scoreNote: null };
}

/**
 * The view of one step.
 * @param algo the run's algorithm id. @param config the settings the step ran with (all fields).
 */
export function inspectView(
  algo: string,
  config: Record<string, SettingValue>,
  r: StepResult,
  text: TokenText,
): InspectView {
  const none = (reason: string): InspectView => ({ kind: "none", step: r.step, algo, reason });
  try {
    const ro = r.rollout;
    switch (algo) {
      case "ppo":
      case "reinforce": {
        if (!ro || !r.advantages || !r.logpTheta || !r.clip) return none("This step has no token data.");
        const epochs = Number(config.ppoEpochs ?? 1);
        const mbs = Number(config.numMiniBatches ?? 1);
        // With one update (one epoch of one minibatch, or REINFORCE) log π_θ is read before it: ρ = 1.
        const ratioFrom =
          algo !== "ppo"
            ? "its single update (μ = 1), read before it, so π_θ = π_old and ρ = 1"
            : epochs === 1 && mbs === 1
              ? "its one PPO epoch of one minibatch, read before that only update, so π_θ = π_old and ρ = 1"
              : `${epochs === 1 ? "its one PPO epoch" : `the last of ${epochs} PPO epochs`}${mbs > 1 ? `, in each row's own minibatch (one of ${mbs})` : ""}`;
        return tokenInspect(
          {
            step: r.step,
            algo,
            S: ro.seq.S,
            completionMask: ro.seq.completionMask,
            prompts: ro.prompts,
            completions: ro.completions,
            reward: ro.reward,
            logpOld: ro.logpOld,
            logpRef: ro.logpRef,
            logpTheta: r.logpTheta,
            advantages: r.advantages,
            ...r.clip,
            gae: r.gae,
            ...(algo === "reinforce" &&
              r.metrics.baseline !== undefined && {
                baseline: {
                  b: r.metrics.baseline,
                  decay: Number(config.baselineDecay),
                  beta: Number(config.beta ?? 0),
                  greedy: config.baseline === "greedy",
                },
              }),
            // ReMax: b = s − Â of each completion (Â is the same on all its tokens; the first is one).
            ...(algo === "reinforce" &&
              config.baseline === "greedy" &&
              r.scores && {
                baselines: Array.from(
                  ro.completions,
                  (_, b) => (r.scores?.[b] ?? 0) - (r.advantages?.[b * ro.seq.S] ?? 0),
                ),
              }),
            klEstimator: (config.klEstimator as KlEstimator & ("k1" | "k3")) ?? "k1",
            ratioFrom,
          },
          text,
        );
      }
      case "grpo":
      case "safe_rlhf":
      case "rloo": {
        if (!ro || !r.scores) return none("This step has no scores.");
        const rloo = algo === "rloo";
        return groupInspect(
          {
            step: r.step,
            algo,
            rule: rloo ? "rloo" : "grpo",
            G: Number(config.numGenerations),
            scaleRewards: rloo ? null : ((config.scaleRewards as "group" | "batch" | "none") ?? "group"),
            ...scoreText(algo, config, r.metrics["safe/lambda"]),
            prompts: ro.prompts,
            completions: ro.completions,
            reward: ro.reward,
            scores: r.scores,
            ...(!rloo &&
              config.lossType !== undefined && {
                loss: {
                  lossType: config.lossType as GrpoLossType,
                  L: ro.seq.S,
                  maxNewTokens: Number(config.maxNewTokens),
                },
              }),
          },
          text,
        );
      }
      case "dpo":
        if (!r.preferences) return none("This step has no preference pairs.");
        return pairInspect(
          {
            step: r.step,
            algo,
            pairs: r.preferences.pairs,
            logps: r.preferences.logps,
            options: r.preferences.options,
            flipped: r.preferences.flipped,
          },
          text,
        );
      default:
        return none(NO_INSPECTOR[algo] ?? `${algo} has no inspector.`);
    }
  } catch (e) {
    return none(`The inspector could not be built for step ${r.step}: ${message(e)}`);
  }
}
