/**
 * Every case of ../shared/test-vectors/losses.json, routed through src/algorithms/math. One test per case; a
 * case added to the file without a route here fails (see the last test).
 */
import { describe, expect, it } from "vitest";
import { bestOfNKlBound } from "../../src/algorithms/math/best_of_n";
import { type DpoLossType, dpoLossAndGrad } from "../../src/algorithms/math/dpo";
import { gae } from "../../src/algorithms/math/gae";
import { aggregateTokenLoss, grpoAdvantages, grpoLossAndGrad } from "../../src/algorithms/math/grpo";
import { exactKl, klPerToken } from "../../src/algorithms/math/kl";
import { ktoLossAndGrad } from "../../src/algorithms/math/kto";
import { orpoLossAndGrad } from "../../src/algorithms/math/orpo";
import { adaptiveKlBeta, ppoPolicyLossAndGrad, ppoValueLossAndGrad } from "../../src/algorithms/math/ppo";
import { bradleyTerryLossAndGrad } from "../../src/algorithms/math/reward_model";
import { rlooAdvantages } from "../../src/algorithms/math/rloo";
import { entropyRef } from "../../src/reference/entropy";
import { exactKlRef } from "../../src/reference/exact_kl";
import { logSoftmaxRow } from "../../src/reference/softmax";
import { tokenLogprobRef } from "../../src/reference/token_logprob";
import { loadVectors, type VectorCase } from "../helpers/vectors";
import { expectAllClose, expectClose, padRows } from "./helpers";

/** A single completion of n tokens, all counted: B = 1, T = n. */
const oneRow = (n: number) => ({ B: 1, T: n, mask: new Float64Array(n).fill(1) });

/** DPO-family cases: the loss type from `loss_type`, or the one the case's name and fields imply. */
function dpoCase(c: VectorCase, lossType: DpoLossType): void {
  const i = c.inputs;
  const out = dpoLossAndGrad(
    {
      chosenLogps: [i.logp_chosen],
      rejectedLogps: [i.logp_rejected],
      refChosenLogps: i.ref_logp_chosen === undefined ? null : [i.ref_logp_chosen],
      refRejectedLogps: i.ref_logp_rejected === undefined ? null : [i.ref_logp_rejected],
      chosenLengths: i.len_chosen === undefined ? null : [i.len_chosen],
      rejectedLengths: i.len_rejected === undefined ? null : [i.len_rejected],
    },
    {
      lossType: i.loss_type ?? lossType,
      beta: i.beta,
      labelSmoothing: i.label_smoothing,
      simpoGamma: i.gamma,
    },
  );
  expectClose(out.loss, c.expected, c.name);
}

/** GRPO aggregation cases: ragged per-token losses padded with NaN to T = max_completion_length. */
function aggregationCase(c: VectorCase): void {
  const { x, mask, B, T } = padRows(c.inputs.per_token_loss, c.inputs.max_completion_length);
  const out = aggregateTokenLoss(x, { B, T, mask }, c.inputs.loss_type, c.inputs.max_completion_length);
  expectClose(out.loss, c.expected, c.name);
}

function grpoAdvantageCase(c: VectorCase): void {
  const out = grpoAdvantages(c.inputs.scores, c.inputs.group_size, c.inputs.scale_rewards);
  expectAllClose(out.advantages, c.expected, c.name);
}

function gaeCase(c: VectorCase): void {
  const { rewards, values, gamma, lam } = c.inputs;
  const out = gae(rewards, values, oneRow(rewards.length), gamma, lam);
  expectAllClose(out.advantages, c.expected.advantages, "advantages");
  expectAllClose(out.returns, c.expected.returns, "returns");
}

const ROUTES: Record<string, (c: VectorCase) => void> = {
  kl_estimators_per_token: (c) => {
    const { logp, logp_ref } = c.inputs;
    for (const k of ["k1", "k2", "k3"] as const) {
      const out = klPerToken(logp, logp_ref, oneRow(logp.length), k);
      expectAllClose(
        out,
        c.expected.map((e: Record<string, number>) => e[k]),
        k,
      );
    }
  },
  // The three vocabulary-row cases belong to the kernels (test/kernels/ checks the GPU paths against the same
  // vectors); here they go through the float64 twins the algorithm math relies on, and exact_kl also through
  // kl.ts's exactKl over log-prob rows.
  exact_kl_full_vocab: (c) => {
    const { logits_policy, logits_ref, temperature } = c.inputs;
    const V = logits_policy.length;
    const p = logSoftmaxRow(logits_policy, 0, V, temperature)!;
    const q = logSoftmaxRow(logits_ref, 0, V, temperature)!;
    expectClose(exactKl(p, q), c.expected, "exactKl");
    const twin = exactKlRef(
      Float64Array.from(logits_policy),
      Float64Array.from(logits_ref),
      1,
      V,
      null,
      temperature,
    );
    expectClose(twin[0], c.expected, "exactKlRef");
  },
  entropy_with_temperature: (c) => {
    const { logits, temperature } = c.inputs;
    expectClose(entropyRef(Float64Array.from(logits), 1, logits.length, null, temperature)[0], c.expected);
  },
  logprob_uses_temperature: (c) => {
    const { logits, token, temperature } = c.inputs;
    const lp = tokenLogprobRef(Float64Array.from(logits), 1, logits.length, [token], null, temperature);
    expectClose(lp[0], c.expected);
  },
  gae_gamma1_lambda095: gaeCase,
  gae_gamma09_lambda08: gaeCase,
  ppo_clipped_surrogate: (c) => {
    const { logp, logp_old, advantages, epsilon } = c.inputs;
    const out = ppoPolicyLossAndGrad(logp, logp_old, advantages, oneRow(logp.length), { epsilon });
    expectClose(out.loss, c.expected.loss, "loss");
    expectClose(out.metrics["policy/clipfrac_avg"], c.expected.clipfrac, "clipfrac");
  },
  clip_higher: (c) => {
    const { logp, logp_old, advantages, epsilon, epsilon_high } = c.inputs;
    const opts = { epsilon, epsilonHigh: epsilon_high };
    const ppo = ppoPolicyLossAndGrad(logp, logp_old, advantages, oneRow(logp.length), opts);
    expectClose(ppo.loss, c.expected.loss, "ppo loss");
    expectClose(ppo.metrics["policy/clipfrac_avg"], c.expected.clipfrac, "ppo clipfrac");
    // The same numbers through GRPO: four one-token completions, one advantage each, no KL term.
    const B = logp.length;
    const grpo = grpoLossAndGrad(
      logp,
      logp_old,
      null,
      advantages,
      { B, T: 1, mask: new Float64Array(B).fill(1) },
      {
        ...opts,
        beta: 0,
        lossType: "grpo",
      },
    );
    expectClose(grpo.loss, c.expected.loss, "grpo loss");
    expectClose(grpo.metrics["policy/clipfrac_avg"], c.expected.clipfrac, "grpo clipfrac");
  },
  ppo_value_loss_clipped: (c) => {
    const { values, values_old, returns, epsilon_v } = c.inputs;
    const out = ppoValueLossAndGrad(values, values_old, returns, oneRow(values.length), epsilon_v);
    expectClose(out.loss, c.expected);
  },
  grpo_advantages_group: grpoAdvantageCase,
  grpo_advantages_batch: grpoAdvantageCase,
  grpo_advantages_none: grpoAdvantageCase,
  grpo_aggregation_grpo: aggregationCase,
  grpo_aggregation_dapo: aggregationCase,
  grpo_aggregation_dr_grpo: aggregationCase,
  rloo_advantages: (c) => {
    expectAllClose(rlooAdvantages(c.inputs.scores, c.inputs.group_size), c.expected);
  },
  dpo_sigmoid: (c) => dpoCase(c, "sigmoid"),
  dpo_hinge: (c) => dpoCase(c, "hinge"),
  dpo_label_smoothing: (c) => dpoCase(c, "sigmoid"),
  dpo_ipo: (c) => dpoCase(c, "ipo"),
  simpo: (c) => dpoCase(c, "simpo"),
  dpo_identical_pair_is_log2: (c) => dpoCase(c, "sigmoid"),
  bradley_terry: (c) => {
    const out = bradleyTerryLossAndGrad(c.inputs.r_chosen, c.inputs.r_rejected);
    expectClose(out.loss, c.expected.loss, "loss");
    expectClose(out.metrics.accuracy, c.expected.accuracy, "accuracy");
  },
  best_of_n_kl_bound: (c) => {
    expectAllClose(
      c.inputs.n.map((n: number) => bestOfNKlBound(n)),
      c.expected,
    );
  },
  adaptive_kl_controller: (c) => {
    const { beta, kl, target, n, horizon } = c.inputs;
    expectClose(adaptiveKlBeta(beta, kl, n, target, horizon), c.expected);
  },
  kto: (c) => {
    const { logp, logp_ref, desirable, z0, beta, lambda_d, lambda_u } = c.inputs;
    const out = ktoLossAndGrad(logp, logp_ref, desirable, z0, {
      beta,
      desirableWeight: lambda_d,
      undesirableWeight: lambda_u,
    });
    expectClose(out.loss, c.expected);
  },
  orpo: (c) => {
    const { mean_logp_chosen, mean_logp_rejected, sft_loss_chosen, lambda } = c.inputs;
    // L_SFT is the chosen completion's mean token cross-entropy, −logP(y_w): the case's two inputs agree.
    expect(sft_loss_chosen).toBe(-mean_logp_chosen);
    expectClose(orpoLossAndGrad([mean_logp_chosen], [mean_logp_rejected], lambda).loss, c.expected);
  },
};

describe("shared float64 test vectors (losses.json)", () => {
  const cases = loadVectors();
  for (const c of cases)
    it(`${c.name} (${c.doc})`, () => {
      const route = ROUTES[c.name];
      if (!route)
        throw new Error(`no route for test vector "${c.name}": add one in test/algorithms/vectors.test.ts`);
      route(c);
    });

  it("routes exactly the cases the file has", () => {
    expect(new Set(Object.keys(ROUTES))).toEqual(new Set(cases.map((c) => c.name)));
    expect(cases.length).toBe(new Set(cases.map((c) => c.name)).size);
  });
});
