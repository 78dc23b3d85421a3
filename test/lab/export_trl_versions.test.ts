/**
 * Which TRL versions an exported script runs on (src/lab/export/trl_script.ts pipText, trl_imports.ts,
 * trl_py.ts): TRL 0.23–0.26, and TRL 1.x for every trainer TRL 1.x still has (all but PPO). TRL 1.x moved CPO
 * and ORPO to trl.experimental and dropped DPOConfig's and KTOConfig's max_completion_length, and added
 * GRPOConfig's entropy_coef; the scripts import from either place and set such keywords only where the
 * installed class has them (src/lab/export/trl_versions.ts). The real check, every
 * script trained 2 steps on TRL 1.13 with a tiny model, is scripts/trl-check/check.sh (needs torch: not here).
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { trlScript } from "../../src/lab/export/trl_script";
import type { RunSpec } from "../../src/lab/protocol";
import { python3 } from "../helpers/python";
import { experiment, ppo } from "./export_fixtures";

const python = python3();
const arith = { ...experiment, task: "arithmetic" as const, model: "sft" as const };
const script = (algo: RunSpec["algo"], config: RunSpec["config"] = {}) =>
  trlScript(arith, { spec: { id: `${algo}-1`, algo, label: algo, config }, step: 3 });

/** A config class stub that, like the dataclass, refuses `keyword` unless it is one of its `fields`. */
const stubConfig = (cls: string, fields: string, keyword: string) => `class ${cls}:
    __dataclass_fields__ = {${fields}}
    def __init__(self, **kw):
        bad = [k for k in kw if k == "${keyword}" and k not in self.__dataclass_fields__]
        if bad: raise TypeError(bad)
        self.__dict__.update(kw)`;

const TRL_0X = 'pip install "trl>=0.23,<0.27" "transformers<5" datasets torch';
const TRL_1X = 'pip install "trl>=1.13,<2" datasets torch';

describe("TRL versions of the exported script", () => {
  it("names both install lines, but only TRL 0.23–0.26 for PPO (TRL 1.x has no PPOTrainer)", () => {
    for (const algo of [
      "grpo",
      "rloo",
      "reinforce",
      "dpo",
      "kto",
      "orpo",
      "expert_iteration",
      "safe_rlhf",
      "bon",
    ] as const) {
      const s = script(algo);
      expect(s, algo).toContain(TRL_0X);
      expect(s, algo).toContain(TRL_1X);
    }
    const p = trlScript(arith, { spec: ppo, step: 3 });
    expect(p).toContain(TRL_0X);
    expect(p).not.toContain(TRL_1X);
    expect(p).toMatch(/TRL 1\.x removed it/);
    // On TRL 1.x the import stops with the install line rather than a bare ImportError.
    expect(p).toMatch(
      /from trl\.experimental\.ppo import[\s\S]*from trl import PPOConfig, PPOTrainer\n {4}except ImportError:[^\n]*\n {8}raise SystemExit\('This TRL has no PPOTrainer[^\n]*trl>=0\.23,<0\.27/,
    );
  });

  it("imports CPO and ORPO from trl.experimental, or from trl before they moved", () => {
    expect(script("orpo")).toMatch(
      /try:\n {4}from trl\.experimental\.orpo import ORPOConfig, ORPOTrainer\nexcept ImportError:[^\n]*\n {4}from trl import ORPOConfig, ORPOTrainer\n/,
    );
    expect(script("dpo", { lossType: "simpo" })).toMatch(
      /try:\n {4}from trl\.experimental\.cpo import CPOConfig, CPOTrainer\nexcept ImportError:[^\n]*\n {4}from trl import CPOConfig, CPOTrainer\n/,
    );
    expect(script("dpo")).toMatch(/\nfrom trl import DPOConfig, DPOTrainer\n/);
  });

  it("sets DPO's and KTO's max_completion_length after the config call, where the class has it", () => {
    for (const [algo, cls] of [
      ["dpo", "DPOConfig"],
      ["kto", "KTOConfig"],
    ] as const) {
      const s = script(algo);
      const call = s.slice(s.indexOf(`config = ${cls}(`), s.indexOf("\n)\n", s.indexOf(`config = ${cls}(`)));
      expect(call, algo).not.toMatch(/max_completion_length/);
      expect(s, algo).toMatch(
        new RegExp(
          `\\n\\)\\nif "max_completion_length" in ${cls}\\.__dataclass_fields__:[^\\n]*\\n {4}config\\.max_completion_length = 9 {2}# maxNewTokens`,
        ),
      );
    }
    // ORPO and CPO kept the keyword in TRL 1.x: it stays in the call.
    expect(script("orpo")).toMatch(/ORPOConfig\([\s\S]*\n {4}max_completion_length=9,/);
  });

  it("sets GRPO's entropy bonus as entropy_coef where GRPOConfig has it, and says so where it has not", () => {
    for (const algo of ["grpo", "safe_rlhf"] as const) {
      const s = script(algo, { entCoef: 0.1 });
      const call = s.slice(
        s.indexOf("config = GRPOConfig("),
        s.indexOf("\n)\n", s.indexOf("config = GRPOConfig(")),
      );
      expect(call, algo).not.toMatch(/entropy_coef/);
      expect(s, algo).toMatch(
        /\n\)\nif "entropy_coef" in GRPOConfig\.__dataclass_fields__:[^\n]*TRL 0\.x's GRPOTrainer has no entropy bonus\n {4}config\.entropy_coef = 0\.1 {2}# entCoef \(c_H\): [^\n]*TRL averages the entropy over all the batch's completion tokens[^\n]*\nelse:\n {4}print\("This TRL's GRPOConfig has no entropy_coef: the run's entropy bonus c_H is not applied\."\)\n/,
      );
      expect(s, algo).not.toMatch(/#\s+entCoef = /);
    }
    // At c_H = 0 (TRL's default too) nothing to warn or note; under dapo TRL's mean is the lab's.
    for (const off of [script("grpo"), script("grpo", { lossType: "dapo", entCoef: 0.1 })]) {
      expect(off).toMatch(/\n {4}config\.entropy_coef = 0(\.1)? {2}# entCoef \(c_H\): [^\n]*\n/);
      expect(off).not.toMatch(/TRL averages the entropy/);
    }
    expect(script("grpo")).toMatch(/\n {4}config\.entropy_coef = 0 {2}# [^\n]*\n(?!else:)/);
    // PPOTrainer has no entropy bonus in any version: a comment, as before.
    expect(trlScript(arith, { spec: ppo, step: 3 })).toMatch(
      /#\s+entCoef = 0: .*PPOConfig has no `entropy_coef`/,
    );
  });

  /** The script's lines from `config = <cls>(` to the end of the line holding `last`, run by python3. */
  const runConfig = (s: string, cls: string, last: string, stub: string, print: string) => {
    const from = s.indexOf(`config = ${cls}(`);
    const to = s.indexOf("\n", s.indexOf(last, from));
    return execFileSync(
      python!,
      ["-c", `${stub}\nOUTPUT_DIR, SEED = "out", 0\n${s.slice(from, to)}\n${print}`],
      { encoding: "utf8" },
    ).trim();
  };

  it.skipIf(!python)("the DPO config code runs against a TRL 0.x and a TRL 1.x DPOConfig (stubs)", () => {
    const run = (fields: string) =>
      runConfig(
        script("dpo"),
        "DPOConfig",
        "config.max_completion_length",
        stubConfig("DPOConfig", fields, "max_completion_length"),
        'print(getattr(config, "max_completion_length", None), config.beta)',
      );
    expect(run('"max_completion_length": None')).toBe("9 0.1");
    expect(run("")).toBe("None 0.1");
  });

  it.skipIf(!python)(
    "the GRPO config code runs against a GRPOConfig with and without entropy_coef (stubs)",
    () => {
      const run = (fields: string) =>
        runConfig(
          script("grpo", { entCoef: 0.1 }),
          "GRPOConfig",
          "print(",
          stubConfig("GRPOConfig", fields, "entropy_coef"),
          'print(getattr(config, "entropy_coef", None), config.beta)',
        );
      expect(run('"entropy_coef": None')).toBe("0.1 0.04");
      expect(run("")).toBe(
        "This TRL's GRPOConfig has no entropy_coef: the run's entropy bonus c_H is not applied.\nNone 0.04",
      );
    },
  );
});
