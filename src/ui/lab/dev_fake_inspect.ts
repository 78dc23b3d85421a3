/**
 * DEVELOPMENT ONLY (dev_fake.ts): synthetic Inspect views, so the inspectors can be looked at without a GPU.
 * Random words and log-probs go through the worker's own builders (src/lab/inspect/), so ρ, the clip flags,
 * the KL column, group advantages and DPO's implicit rewards follow the same math as in a real step.
 */
import { gae, klPenalizedRewards, maskedWhiten, whitenMoments } from "../../algorithms/math/gae";
import { groupInspect } from "../../lab/inspect/groups";
import { pairInspect } from "../../lab/inspect/pairs";
import type { TokenText } from "../../lab/inspect/text";
import { tokenInspect } from "../../lab/inspect/tokens";
import type { InspectView, RunSpec } from "../../lab/protocol";

const PROMPTS = ["Call me Ishmael. ", "The sea was ", "It was a grey morning; "];

/**
 * A synthetic view of `spec`'s step `step` (r: uniform [0, 1) draws; words: the completions' vocabulary, token
 * id i is " words[i]", id words.length is "<eos>"; prompt ids index PROMPTS).
 */
export function fakeInspect(
  spec: RunSpec,
  step: number,
  r: () => number,
  words: readonly string[],
): InspectView {
  try {
    return build(spec, step, r, words);
  } catch (e) {
    // As the worker's build.ts: a builder's error is a view that says it.
    return {
      kind: "none",
      step,
      algo: spec.algo,
      reason: `fake view: ${e instanceof Error ? e.message : e}`,
    };
  }
}

function build(spec: RunSpec, step: number, r: () => number, words: readonly string[]): InspectView {
  const { algo, config: c } = spec;
  const eos = words.length;
  const text: TokenText = {
    token: (id) => (id === eos ? "<eos>" : ` ${words[id]}`),
    prompt: (ids) => PROMPTS[ids[0]] ?? "",
  };
  // The first prompts of the batch (at most the three above), and completions of a few words and an EOS.
  const prompts = PROMPTS.slice(0, Math.max(1, Number(c.batchPrompts ?? c.batchPairs ?? 8))).map((_, i) => [
    i,
  ]);
  const completion = (min: number) => [
    ...Array.from({ length: min + Math.floor(r() * 3) }, () => Math.floor(r() * eos)),
    eos,
  ];
  const many = (n: number, f: () => number) => Array.from({ length: n }, f);
  if (algo === "ppo" || algo === "reinforce") {
    const completions = prompts.map(() => completion(3));
    const S = Math.max(...completions.map((x) => x.length));
    const mask = completions.flatMap((x) => many(S, () => 0).map((_, j) => (j < x.length ? 1 : 0)));
    const logpOld = many(completions.length * S, () => -3 * r());
    const epochs = Number(c.ppoEpochs ?? 4);
    const eps = Number(c.epsilon ?? 0.2);
    const reward = many(completions.length, () => 2 * r() - 1);
    const logpRef = logpOld.map((x) => x - 0.2 * (r() - 0.4));
    const klEstimator = c.klEstimator === "k3" ? "k3" : "k1";
    // PPO's advantages from its own math (per-token rewards, GAE, whitening) on random values; REINFORCE's
    // are random.
    const shape = { B: completions.length, T: S, mask };
    const beta = Number(c.beta ?? 0.05);
    const [gamma, lam] = [Number(c.gamma ?? 1), Number(c.lam ?? 0.95)];
    const kr = klPenalizedRewards(reward, logpOld, logpRef, shape, beta, klEstimator);
    const values = mask.map((m) => (m ? r() - 0.5 : 0));
    const g = gae(kr.rewards, values, shape, gamma, lam);
    const ppo = algo === "ppo";
    const whiten = c.whitenAdvantages !== false;
    return tokenInspect(
      {
        step,
        algo,
        S,
        completionMask: mask,
        prompts,
        completions,
        reward,
        logpOld,
        logpRef,
        // REINFORCE updates once per batch (μ = 1): its ratio is 1.
        logpTheta: ppo ? logpOld.map((x) => x + 0.4 * (r() - 0.5)) : logpOld,
        advantages: ppo
          ? whiten
            ? maskedWhiten(g.advantages, shape)
            : g.advantages
          : many(completions.length * S, () => 2 * (r() - 0.5)),
        epsLow: eps,
        epsHigh: Number(c.epsilonHigh) || eps,
        klEstimator,
        ratioFrom: ppo
          ? `${epochs === 1 ? "its one PPO epoch" : `the last of ${epochs} PPO epochs`}`
          : "its single update (μ = 1)",
        ...(ppo && {
          gae: {
            ...g,
            rewards: kr.rewards,
            values,
            beta,
            gamma,
            lam,
            whiten: whiten ? whitenMoments(g.advantages, shape) : null,
          },
        }),
      },
      text,
    );
  }
  if (algo === "grpo" || algo === "rloo" || algo === "safe_rlhf") {
    const G = Number(c.numGenerations ?? 4);
    const rows = prompts.flatMap((p) => many(G, () => 0).map(() => p));
    // The last group all right: a zero-std group, as frac_reward_zero_std counts.
    const reward = rows.map((p) => (p[0] === 2 ? 1 : Math.round(r())));
    const rloo = algo === "rloo";
    const comps = rows.map(() => completion(2));
    return groupInspect(
      {
        step,
        algo,
        rule: rloo ? "rloo" : "grpo",
        G,
        scaleRewards: rloo ? null : ((c.scaleRewards as "group" | "batch" | "none") ?? "group"),
        scoreFormula: null,
        scoreNote: null,
        prompts: rows,
        completions: comps,
        reward,
        scores: reward,
        ...(!rloo && {
          loss: {
            lossType: (c.lossType as "grpo" | "dapo" | "dr_grpo") ?? "grpo",
            L: Math.max(...comps.map((x) => x.length)),
          },
        }),
      },
      text,
    );
  }
  if (algo === "dpo") {
    const pairs = prompts.map((prompt) => ({ prompt, chosen: completion(2), rejected: completion(2) }));
    const seqLogp = (ids: number[]) => -2 * ids.length * (0.5 + r());
    const chosenLogps = pairs.map((p) => seqLogp(p.chosen));
    const rejectedLogps = pairs.map((p) => seqLogp(p.rejected));
    return pairInspect(
      {
        step,
        algo,
        pairs,
        logps: {
          chosenLogps,
          rejectedLogps,
          refChosenLogps: chosenLogps.map((x) => x + r() - 0.5),
          refRejectedLogps: rejectedLogps.map((x) => x + r() - 0.5),
          chosenLengths: pairs.map((p) => p.chosen.length),
          rejectedLengths: pairs.map((p) => p.rejected.length),
        },
        options: { lossType: "sigmoid", beta: Number(c.beta ?? 0.1), labelSmoothing: 0, simpoGamma: 0.5 },
        flipped: pairs.map(() => r() < 0.25),
      },
      text,
    );
  }
  return { kind: "none", step, algo, reason: `${algo} has no inspector in the fake backend.` };
}
