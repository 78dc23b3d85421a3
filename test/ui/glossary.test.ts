/**
 * The metric glossary (src/ui/lab/glossary.ts) covers every metric the UI can show: it runs one step of every
 * registry algorithm on the nano model (GPU: Dawn, SwiftShader without a GPU), once with its defaults and once
 * per other option of each of its enum and boolean fields, and checks that every metric name any of those
 * steps reported has a one-line definition. The charts' own metric lists must be covered too.
 */
import { describe, expect, it } from "vitest";
import { ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";
import { GLOSSARY, metricCellNote, metricDoc, metricUnit } from "../../src/ui/lab/glossary";
import { labOnlyNote } from "../../src/ui/lab/lab_only_note";
import { ENTROPY, GOLD, KL_ESTIMATORS, labOnly, MORE_METRICS, REWARD } from "../../src/ui/lab/metric_info";
import { PREFS, variants } from "../helpers/every_algorithm";
import { NANO_COSTS, nanoEnv } from "../helpers/nano_env";

/**
 * The names the lab logs as TRL's trainers do (PPOTrainer, GRPOTrainer, RLOOTrainer, DPOTrainer, KTOTrainer and
 * ORPOTrainer; loss, grad_norm and learning_rate as transformers' Trainer logs them).
 */
const TRL_NAMES = new Set<string>([
  // PPOTrainer
  ...["objective/kl", "objective/entropy", "objective/non_score_reward", "objective/rlhf_reward"],
  ...["objective/scores", "policy/approxkl_avg", "policy/clipfrac_avg", "loss/policy_avg", "loss/value_avg"],
  ...["val/clipfrac_avg", "val/ratio", "lr"],
  // GRPOTrainer and RLOOTrainer
  ...["reward", "reward_std", "frac_reward_zero_std", "kl", "entropy", "clip_ratio/low_mean"],
  ...["clip_ratio/high_mean", "clip_ratio/region_mean", "completions/mean_length", "completions/min_length"],
  ...["completions/max_length", "completions/clipped_ratio"],
  // DPOTrainer, KTOTrainer, ORPOTrainer
  ...["rewards/chosen", "rewards/rejected", "rewards/accuracies", "rewards/margins", "logps/chosen"],
  ...["logps/rejected", "log_odds_ratio", "log_odds_chosen", "nll_loss"],
  // The Trainer's own
  ...["loss", "grad_norm", "learning_rate"],
]);

describe("metric glossary", () => {
  it("has a one-line definition for every metric the charts list", () => {
    const keys = [REWARD, GOLD, ENTROPY, ...MORE_METRICS]
      .map((m) => m.key)
      .concat(KL_ESTIMATORS.map((k) => k.key));
    for (const k of keys) expect(metricDoc(k), k).toBeTruthy();
    for (const [k, doc] of GLOSSARY) {
      expect(doc, k).not.toMatch(/\n/);
      expect(doc.length, k).toBeGreaterThan(15);
      expect(doc.length, k).toBeLessThanOrEqual(180);
    }
  });

  it("gives the all-metrics table a unit where a metric has one", () => {
    expect(metricUnit("step_time")).toBe("s");
    expect(metricUnit("tokens/s")).toBe("tokens/s");
    expect(metricUnit("objective/kl")).toBe(metricUnit("objective/kl_k3"));
    expect(metricUnit("objective/kl")).toBe("nats/completion"); // as the KL chart says it
    expect(metricUnit("entropy")).toBe(ENTROPY.unit);
    expect(metricUnit("completions/mean_length")).toBe("tokens");
    expect(metricUnit("completions/max_length")).toBe("tokens");
    expect(metricUnit("logps/rejected")).toBe(metricUnit("logps/chosen"));
    expect(metricUnit("objective/kl_bound")).toBe("nats");
    expect(metricUnit("frac_reward_zero_std")).toBeUndefined();
    expect(metricUnit("no/such_metric")).toBeUndefined();
    // One TRL name, two quantities: GRPO's kl is per token, KTO's (z₀) per completion.
    expect(metricUnit("kl", "grpo")).toBe("nats/token");
    expect(metricUnit("kl", "kto")).toBe("nats/completion");
    expect(metricUnit("step_time", "kto")).toBe("s");
    // Best-of-n's "exact" KL is its estimate from the scores: its cells say so.
    expect(metricCellNote("objective/kl_exact", "bon")).toMatch(/estimate/);
    expect(metricCellNote("objective/kl_exact", "grpo")).toBeUndefined();
    expect(metricCellNote("objective/kl_bound", "bon")).toBeUndefined();
  });

  it("has a definition for every metric every algorithm reports, in every mode", async () => {
    const missing = new Set<string>();
    const names = new Set<string>();
    let reported = 0;
    for (const id of ALGO_IDS)
      for (const config of variants(id)) {
        const env = { ...(await nanoEnv(3)), costs: NANO_COSTS };
        const run = ALGORITHMS[id].create(env, config, PREFS);
        const { metrics } = await run.step();
        run.destroy();
        reported += Object.keys(metrics).length;
        for (const k of Object.keys(metrics)) names.add(k);
        for (const k of Object.keys(metrics))
          if (!metricDoc(k)) missing.add(`${k} (${id} ${JSON.stringify(config)})`);
      }
    expect(reported).toBeGreaterThan(100);
    expect([...missing]).toEqual([]);
    // Every name is TRL's for the same quantity or marked the lab's own on its card (metric_info.ts labOnly).
    expect([...names].filter((k) => !TRL_NAMES.has(k) && !labOnly(k)).sort()).toEqual([]);
    expect([...TRL_NAMES].filter((k) => labOnly(k))).toEqual([]);
    // The reward chart names two: its card marks the lab's own one.
    expect(labOnlyNote("reward, reward_gold")).toBe("reward_gold: the lab's own, not TRL's");
    expect([labOnlyNote("reward"), labOnlyNote("tokens/s")]).toEqual([
      null,
      "the lab's own, not a TRL metric",
    ]);
  });
});
