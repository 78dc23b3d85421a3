/**
 * Where TRL computes a mapped setting, or the whole trainer, differently from the lab
 * (src/lab/export/trl_semantics.ts): the exported script, the config file, the knob tooltips and the metric
 * glossary say so, and offline DPO exports the completion length the lab trained on.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MISSING_EOS_PENALTY_FIELD } from "../../src/algorithms/fields";
import { runConfig } from "../../src/lab/export/config";
import { TRL_ACCEPTS, type TrlClass } from "../../src/lab/export/trl_accepts";
import { trlNames } from "../../src/lab/export/trl_names";
import { trlScript } from "../../src/lab/export/trl_script";
import { OFFLINE_PAIR_TOKENS } from "../../src/lab/export/trl_semantics";
import { trlMapping } from "../../src/lab/export/trl_targets";
import { preferenceSource } from "../../src/lab/preferences";
import type { RunSpec } from "../../src/lab/protocol";
import { ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";
import { parseTokenizer } from "../../src/tokenizer/tokenizer";
import { metricDoc } from "../../src/ui/lab/glossary";
import { experiment } from "./export_fixtures";

const script = (spec: RunSpec, task: "sentiment" | "arithmetic" = "sentiment") =>
  trlScript({ ...experiment, task }, { spec, step: 12 });
const spec = (algo: RunSpec["algo"], config: RunSpec["config"] = {}): RunSpec => ({
  id: `${algo}-x`,
  algo,
  label: algo,
  config,
});
/** The docstring: from the shebang to the closing quotes. */
const docstring = (s: string) => s.slice(0, s.indexOf('"""', s.indexOf('"""') + 3));

describe("TRL script: where TRL computes differently", () => {
  it("RLOO with μ > 1: TRL clips each completion's sequence ratio, the lab each token's", () => {
    const r = script(spec("rloo", { numIterations: 2, epsilon: 0.3 }));
    expect(r).toMatch(
      /\n {4}epsilon=0\.3, {2}# [^\n]*TRL's RLOOTrainer clips each completion's sequence ratio exp\(Σ log π_θ − Σ log π_old\), the lab each token's ratio[^\n]*TRL's clip_ratio\/\* count completions, the lab's tokens/,
    );
    expect(r).toMatch(
      /\n {4}num_iterations=2, {2}# [^\n]*TRL's ratio is per completion, the lab's per token/,
    );
    // μ = 1: ρ = 1 on the only update, nothing is clipped: no note.
    const one = script(spec("rloo", { epsilon: 0.3 }));
    expect(one).not.toMatch(/TRL's RLOOTrainer clips/);
    expect(one).not.toMatch(/TRL's ratio is per completion/);
    // The knob tooltips carry it, and so do the knobs' own texts.
    expect(trlNames("rloo", { numIterations: 2 }).epsilon).toMatch(
      /^RLOOConfig epsilon \(TRL's RLOOTrainer clips/,
    );
    const doc = (key: string) => ALGORITHMS.rloo.fields.find((f) => f.key === key)?.doc;
    expect(doc("epsilon")).toMatch(/on each token's ratio \(TRL's RLOO clips each completion's ratio\)/);
    expect(doc("numIterations")).toMatch(/per token at ε \(TRL's RLOO: per completion\)/);
    expect(metricDoc("clip_ratio/region_mean")).toMatch(
      /TRL's RLOO clips and counts completions, not tokens/,
    );
    expect(metricDoc("clip_ratio/low_mean")).toMatch(/TRL's RLOO counts completions/);
    expect(metricDoc("clip_ratio/high_mean")).toMatch(/TRL's RLOO counts completions/);
  });

  it("RLOO's frac_reward_zero_std: the card says the lab counts raw-score ties, TRL's after −β·KL", () => {
    expect(metricDoc("frac_reward_zero_std")).toMatch(
      /RLOO: by raw score \(TRL's counts after −β·KL: ≈ 0 when β > 0\)/,
    );
  });

  it("KTO and ORPO: the lab samples from the current policy every step, the script's data is built once", () => {
    const kto = docstring(script(spec("kto")));
    expect(kto).toContain(
      "The lab samples and labels both completions of each prompt from the current policy every step (on-policy); " +
        "this script builds its dataset once from the start model and KTOTrainer trains on it offline",
    );
    const orpo = docstring(script(spec("orpo", { lambda: 0.5 })));
    expect(orpo).toContain(
      "ORPO's odds-ratio weight λ is TRL's ORPOConfig `beta`; there is no reference model.",
    );
    expect(orpo).toContain(
      "The lab samples both completions of each pair from the current policy every step (on-policy); " +
        "this script builds its dataset once from the start model and ORPOTrainer trains on it offline",
    );
    // ORPO's SFT term: the spec's per-completion mean (the lab) against TRL's one token mean over the batch.
    expect(orpo).toMatch(
      /TRL's nll_loss \(the SFT term\) is one token mean over the batch's chosen sequences, prompt tokens included/,
    );
    expect(orpo).toMatch(
      /the lab \(the ORPO paper's L_SFT per pair\) averages each chosen completion's mean token NLL over the pairs/,
    );
    expect(metricDoc("nll_loss")).toMatch(
      /each chosen completion's mean token cross-entropy, averaged over pairs \(TRL's: one token mean over the batch's chosen sequences, prompts included\)/,
    );
    // Online DPO said so before; offline DPO trains offline in both.
    expect(docstring(script(spec("dpo", { mode: "online" })))).toContain(
      "The lab ran online DPO (fresh policy samples labelled every step)",
    );
    expect(docstring(script(spec("dpo", { mode: "online", lossType: "simpo" })))).toMatch(
      /TRL runs SimPO as CPOTrainer[^\n]* The lab ran online DPO/,
    );
    expect(docstring(script(spec("dpo")))).not.toMatch(/on-policy|online DPO/);
  });

  it("PPO: TRL puts the score one slot after the completion's last token", () => {
    expect(docstring(script(spec("ppo")))).toContain(
      "TRL's PPOTrainer adds the score to the per-token reward one slot after the completion's last token " +
        "(the first padding slot, sequence_lengths + 1;",
    );
    expect(trlMapping("ppo", {}).target.note).toMatch(
      /the lab, as Ouyang et al\. 2022, puts it on the last token/,
    );
    expect(trlMapping("grpo", {}).target.note).toBeNull();
  });

  it("offline DPO exports the length of the pairs the lab trained on whole, not its charted samples' limit", () => {
    const off = script(spec("dpo", { maxNewTokens: 24 }));
    expect(off).toMatch(
      /max_completion_length = 64 {2}# [^\n]*The lab trained on its offline pairs whole \(the longest: 64 tokens; max tokens 24 only limits its charted samples\), so not 24/,
    );
    // Its pairs are sampled as long as the lab's were (the shipped file's sampler: 64 tokens).
    expect(off).toMatch(/\nMAX_NEW_TOKENS = 64 {2}# as long as the lab's offline pairs/);
    expect(runConfig(experiment, spec("dpo")).trl?.args.max_completion_length).toBe(64);
    expect(runConfig(experiment, spec("dpo", { lossType: "simpo" })).trl?.args.max_completion_length).toBe(
      64,
    );
    // Online DPO samples its pairs at the run's length; arithmetic's pairs (6 tokens) fit in its 9.
    const on = script(spec("dpo", { mode: "online", maxNewTokens: 24 }));
    expect(on).toMatch(/max_completion_length = 24 {2}#/);
    expect(on).toMatch(/\nMAX_NEW_TOKENS = 24\n/);
    const arith = { task: "arithmetic" as const, model: "sft" as const, seed: 0 }; // room for 9 tokens
    expect(runConfig(arith, spec("dpo")).trl?.args.max_completion_length).toBe(9);
    expect(runConfig(arith, spec("dpo", { maxNewTokens: 4 })).trl?.args.max_completion_length).toBe(6);
    expect(trlMapping("dpo", {}).args.find((a) => a.name === "max_completion_length")?.value).toBe(24);
  });

  it("OFFLINE_PAIR_TOKENS is the longest completion of each task's shipped train pairs", () => {
    for (const task of ["sentiment", "arithmetic"] as const) {
      const dir = join(__dirname, "../../public/models", task);
      const meta = JSON.parse(readFileSync(join(dir, "preferences.meta.json"), "utf8"));
      const tok = parseTokenizer(JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")));
      const text = readFileSync(join(dir, "preferences.jsonl"), "utf8");
      const prefs = preferenceSource(text, tok, 0, task, meta.max_new_tokens);
      expect(prefs.maxCompletion, task).toBe(OFFLINE_PAIR_TOKENS[task]);
    }
  });

  it("names a TRL config class in a field's source only where that class has the field's keyword", () => {
    expect(MISSING_EOS_PENALTY_FIELD.source).not.toMatch(/RLOOConfig/);
    for (const algo of ALGO_IDS)
      for (const f of ALGORITHMS[algo].fields)
        for (const cls of f.source.match(/\b[A-Z]\w*Config\b/g) ?? [])
          if (f.trl && f.source.includes(f.trl) && cls in TRL_ACCEPTS)
            expect(TRL_ACCEPTS[cls as TrlClass].has(f.trl), `${algo}.${f.key}: ${cls}`).toBe(true);
  });
});
