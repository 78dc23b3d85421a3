/**
 * The per-run reward source setting (src/lab/settings.ts RUN_FIELDS): declared once, it is in every
 * algorithm's table in the registry (run card, URL, imports, export) but never reaches the algorithms;
 * invalid values are rejected everywhere with the field's message; links round-trip it; a fresh worker's
 * experiment moves "custom" runs to gold; the TRL export swaps the reward function.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compressToEncodedURIComponent } from "lz-string";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/algorithms/fields";
import { onnxRewardPy } from "../../src/lab/export/trl_rm";
import { trlScript } from "../../src/lab/export/trl_script";
import { trlMapping } from "../../src/lab/export/trl_targets";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";
import { checkRewardChoice } from "../../src/lab/reward_sources";
import {
  algoConfig,
  customRewardsToGold,
  lostRewardNotice,
  RUN_FIELDS,
  rewardOf,
} from "../../src/lab/settings";
import { checkRunConfig } from "../../src/lab/spec_check";
import { decode, encode } from "../../src/lab/url";
import type { OnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import { onnxReward } from "../../src/rewards/sources";
import { readTokenizerFile } from "../../src/tokenizer/node";
import { python3 } from "../helpers/python";

const spec = (reward?: string): ExperimentSpec => ({
  task: "arithmetic",
  model: "nano",
  seed: 3,
  runs: [
    { id: "ppo-1", algo: "ppo", label: "PPO", config: reward ? { reward, beta: 0.1 } : { beta: 0.1 } },
    { id: "grpo-1", algo: "grpo", label: "GRPO", config: {} },
  ],
});

describe("reward source setting", () => {
  it("is the last field of every algorithm's table, default gold, and is stripped before the algorithm", () => {
    for (const id of ALGO_IDS) {
      const f = ALGORITHMS[id].fields.at(-1);
      expect(f?.key, id).toBe("reward");
      expect(f?.default).toBe("gold");
      expect(ALGORITHMS[id].fields.filter((x) => x.key === "reward")).toHaveLength(1);
    }
    expect(RUN_FIELDS[0].options).toEqual(["gold", "proxy", "custom", "pipeline"]);
    expect(algoConfig({ reward: "proxy", beta: 0.2 })).toEqual({ beta: 0.2 });
    expect(rewardOf({ reward: "proxy" })).toBe("proxy");
    expect(rewardOf({})).toBe("gold");
    expect(rewardOf({ reward: "bogus" })).toBe("gold");
  });

  it("rejects values outside gold | proxy | custom, naming them", () => {
    expect(() => validateConfig("ppo", ALGORITHMS.ppo.fields, { reward: "rm" })).toThrow(
      /ppo\.reward must be one of gold \| proxy \| custom \| pipeline, got "rm"/,
    );
    expect(() => validateConfig("ppo", ALGORITHMS.ppo.fields, { reward: 1 })).toThrow(/ppo\.reward/);
    expect(validateConfig("ppo", ALGORITHMS.ppo.fields, { reward: "custom" }).reward).toBe("custom");
    expect(() => checkRewardChoice("nope")).toThrow(
      /reward must be one of gold \| proxy \| custom \| pipeline/,
    );
    const issues: string[] = [];
    expect(checkRunConfig("ppo", "ppo-1", { reward: "rm", beta: 0.2 }, issues)).toEqual({ beta: 0.2 });
    expect(issues.join()).toMatch(/reward must be one of .*using the default "gold"/);
    // The default is not stored.
    expect(checkRunConfig("grpo", "grpo-1", { reward: "gold" }, [])).toEqual({});
  });

  it("round-trips through the link; a bad value in a link is dropped with an issue", () => {
    for (const r of ["proxy", "custom", "pipeline"]) {
      const back = decode(`#${encode(spec(r))}`);
      expect(back.ok).toBe(true);
      if (!back.ok) return;
      expect(back.issues).toEqual([]);
      expect(back.spec.runs[0].config).toEqual({ reward: r, beta: 0.1 });
      expect(back.spec.runs[1].config).toEqual({});
    }
    const gold = decode(`#${encode(spec("gold"))}`);
    expect(gold.ok && gold.spec.runs[0].config).toEqual({ beta: 0.1 });
    const payload = {
      v: 1,
      task: "arithmetic",
      model: "nano",
      seed: 3,
      runs: [{ id: "a", algo: "grpo", config: { reward: "rm", lr: 0.01 } }],
    };
    const bad = decode(`#s=${compressToEncodedURIComponent(JSON.stringify(payload))}`);
    expect(bad.ok && bad.spec.runs[0].config).toEqual({ lr: 0.01 });
    expect(bad.ok && bad.issues.join()).toMatch(
      // A run without a label is named by its place and algorithm (its id is internal, shown nowhere).
      /^run 1 \(GRPO\)\.reward must be one of gold \| proxy \| custom \| pipeline, got "rm"/,
    );
  });

  it("a fresh worker's experiment moves custom runs to gold and names them", () => {
    for (const r of ["custom", "pipeline"]) {
      const { spec: s, changed } = customRewardsToGold(spec(r));
      expect(changed).toEqual(["PPO"]);
      expect(s.runs[0].config).toEqual({ beta: 0.1 });
    }
    const same = spec("proxy");
    expect(customRewardsToGold(same)).toEqual({ spec: same, changed: [] });
    // The notice says which model is gone and why: an .onnx file (load it again), the Pipeline's (not here).
    expect(lostRewardNotice(spec("custom"), ["PPO"])).toBe(
      "PPO optimised a reward model loaded from an .onnx file, which is not kept across reloads: it optimises the gold scorer now (load the file again with Load RM to switch back).",
    );
    const piped = lostRewardNotice(spec("pipeline"), ["PPO"]);
    expect(piped).toMatch(/^PPO optimised the Pipeline's reward model, which this browser does not hold/);
    expect(piped).toContain("rather than the Pipeline's SFT model");
    expect(lostRewardNotice(spec("pipeline"), [])).toBe("");
    expect(lostRewardNotice(spec("pipeline"), ["PPO"], true)).toMatch(
      /^PPO optimised the Pipeline's reward model, which this browser kept but could not load again: it optimises/,
    );
  });

  it("the TRL export scores with the ONNX reward model for proxy/custom and keeps the gold scorer", () => {
    const exp = { task: "arithmetic" as const, model: "nano" as const, seed: 3 };
    const gold = trlScript(exp, { spec: spec().runs[0], step: 2 });
    expect(gold).toMatch(/\ndef score\(prompt, completion\):/);
    expect(gold).not.toMatch(/onnxruntime|gold_score/);
    const proxy = trlScript(exp, { spec: spec("proxy").runs[0], step: 2 });
    expect(proxy).toMatch(/\ndef gold_score\(prompt, completion\):/);
    expect(proxy).toMatch(/RM_PATH = "rm\.onnx" .*public\/models\/arithmetic\/rm\.onnx/);
    expect(proxy.match(/\ndef score\(/g)).toHaveLength(1);
    expect(proxy).toMatch(/#\s+reward = "proxy": .*score\(\) is this reward/);
    const custom = trlScript(exp, { spec: spec("custom").runs[0], step: 2 });
    expect(custom).toMatch(/RM_PATH = "reward_model\.onnx" {2}# PLACEHOLDER/);
    const pipeline = trlScript(exp, { spec: spec("pipeline").runs[0], step: 2 });
    expect(pipeline).toMatch(
      /RM_PATH = "pipeline_rm\.onnx" {2}# PLACEHOLDER: the Pipeline view's reward model/,
    );
    expect(trlMapping("ppo", { reward: "proxy" }).args.map((a) => a.name)).not.toContain("reward");
  });

  it("the TRL export of DPO, KTO, ORPO labels with the gold score, whatever their reward menu says", () => {
    // In the lab they learn from the annotator's labels, made from the gold scores (src/algorithms/pairs.ts).
    const exp = { task: "arithmetic" as const, model: "nano" as const, seed: 3 };
    for (const algo of ["dpo", "kto", "orpo"] as const) {
      const p = trlScript(exp, {
        spec: { id: "x", algo, label: algo, config: { reward: "pipeline" } },
        step: 2,
      });
      expect(p, algo).toMatch(/\ndef score\(prompt, completion\):/);
      expect(p, algo).not.toMatch(/onnxruntime|gold_score|RM_PATH/);
      expect(p, algo).toMatch(/#\s+reward = "pipeline": .*the labels come from the gold score/);
    }
  });
});

const python = python3("numpy");

/** A stand-in reward model: Σ over real tokens of id·(its position among the real tokens + 1). */
const positionalScore = (ids: number[]) => ids.reduce((a, id, i) => a + id * (i + 1), 0);

describe("the exported ONNX reward function", () => {
  it.skipIf(!python)(
    "feeds the model what the lab feeds it (tokens, <bos>/<eos>, left cut at max_length)",
    async () => {
      const tok = readTokenizerFile("public/models/arithmetic/tokenizer.json");
      const MAX = 12;
      // The lab's side: onnxReward over a model that scores left-padded rows by the rule above.
      const model: OnnxRewardModel = {
        vocabSize: tok.vocabSize,
        maxLength: MAX,
        metadata: {},
        warnings: [],
        run: async (ids, mask, B, T) =>
          Float64Array.from({ length: B }, (_, b) =>
            positionalScore(
              Array.from({ length: T }, (_, t) => b * T + t)
                .filter((i) => mask[i])
                .map((i) => ids[i]),
            ),
          ),
        release: async () => undefined,
      };
      const cases: [string, string][] = [
        ["37+45=", "82"],
        ["1+2=", "x3?"], // unknown characters: <unk>
        ["99+99=", "198198198198"], // longer than max_length: cut from the left
        ["5+5=", ""],
      ];
      const lab = await onnxReward(model, tok).score(
        cases.map(([p, c]) => ({
          prompt: tok.encode(p, { bos: true }),
          completion: tok.encode(c, { eos: true }),
        })),
      );
      // The script's side, with a stub onnxruntime that applies the same rule to what it is fed.
      const dir = mkdtempSync(join(tmpdir(), "trl-rm-"));
      writeFileSync(
        join(dir, "onnxruntime.py"),
        `import numpy as np
class _Meta:
    custom_metadata_map = {"max_length": "${MAX}"}
class InferenceSession:
    def __init__(self, path):
        self.path = path
    def get_modelmeta(self):
        return _Meta()
    def run(self, names, feed):
        ids, mask = feed["input_ids"], feed["attention_mask"]
        assert names == ["scores"] and ids.dtype == np.int64 and mask.dtype == np.int64
        real = [int(i) for i, m in zip(ids[0], mask[0]) if m]
        return [np.array([sum(i * (k + 1) for k, i in enumerate(real))], dtype=np.float32)]
`,
      );
      copyFileSync("public/models/arithmetic/tokenizer.json", join(dir, "tokenizer.json"));
      writeFileSync(
        join(dir, "rm.py"),
        `import json, sys\n${onnxRewardPy("arithmetic", "proxy")}\nprint(json.dumps([score(p, c) for p, c in json.load(sys.stdin)]))\n`,
      );
      const py = JSON.parse(
        execFileSync(python!, ["rm.py"], { cwd: dir, input: JSON.stringify(cases) }).toString(),
      ) as number[];
      expect(py).toEqual(Array.from(lab));
      expect(new Set(py).size).toBe(cases.length);
    },
  );
});

describe("TRL scripts of proxy/custom runs", () => {
  it.skipIf(!python)("compile with python3 -m py_compile for every algorithm and task", () => {
    const dir = mkdtempSync(join(tmpdir(), "trl-proxy-"));
    const files: string[] = [];
    for (const task of ["sentiment", "arithmetic"] as const)
      for (const algo of ALGO_IDS)
        for (const reward of ["proxy", "custom", "pipeline"]) {
          const f = join(dir, `${task}_${algo}_${reward}.py`);
          const spec = { id: `${algo}-1`, algo, label: algo, config: { reward } };
          writeFileSync(f, trlScript({ task, model: "sft", seed: 0 }, { spec, step: 1 }));
          files.push(f);
        }
    execFileSync(python!, ["-W", "error", "-m", "py_compile", ...files], { stdio: "pipe" });
  });
});
