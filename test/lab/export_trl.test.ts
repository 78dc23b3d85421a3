/**
 * The exported TRL script (src/lab/export/trl_script.ts, trl_rewards.ts): it covers every algorithm, maps the
 * run's settings to TRL's names and values, exports the completion length the lab sampled, and, where python3
 * is found, compiles, samples with the run's settings and scores like the lab. Its training length is in
 * ./export_length.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runConfig } from "../../src/lab/export/config";
import { rewardPy } from "../../src/lab/export/trl_rewards";
import { pyValue, slug, trlScript } from "../../src/lab/export/trl_script";
import { trlTarget } from "../../src/lab/export/trl_targets";
import { describeConfig } from "../../src/lab/pipeline/model_config";
import type { RunSpec } from "../../src/lab/protocol";
import { ALGO_IDS } from "../../src/lab/registry";
import { PRESETS } from "../../src/model/config";
import { arithmeticGold } from "../../src/tasks/arithmetic";
import { sentimentScore } from "../../src/tasks/sentiment/afinn";
import { python3 } from "../helpers/python";
import { experiment, ppo } from "./export_fixtures";

const python = python3();

describe("TRL script", () => {
  const runs: RunSpec[] = [
    ppo,
    {
      id: "grpo-1",
      algo: "grpo",
      label: 'GRPO "β = 0" \\N',
      config: { beta: 0, numGenerations: 8, batchPrompts: 4, lossType: "dr_grpo" },
    },
    { id: "dpo-1", algo: "dpo", label: "DPO", config: { beta: 0.5, flipRate: 0.1 } },
    { id: "dpo-2", algo: "dpo", label: "SimPO", config: { lossType: "simpo", simpoGamma: 1.5, beta: 2 } },
    {
      id: "rloo-1",
      algo: "rloo",
      label: "RLOO",
      config: { numGenerations: 6, epsilon: 0.3, numIterations: 2 },
    },
    { id: "reinforce-1", algo: "reinforce", label: "REINFORCE", config: { beta: 0.1, baselineDecay: 0.5 } },
    { id: "bon-1", algo: "bon", label: "Best-of-n", config: { n: 16 } },
    {
      id: "kto-1",
      algo: "kto",
      label: "KTO",
      config: { beta: 0.2, desirableWeight: 1.5, label: "threshold" },
    },
    { id: "orpo-1", algo: "orpo", label: "ORPO", config: { lambda: 0.5 } },
    { id: "ei-1", algo: "expert_iteration", label: "RFT", config: { k: 8, sftSteps: 3 } },
    { id: "safe-1", algo: "safe_rlhf", label: "Safe", config: { costLimit: 12, lambdaInit: 0.5 } },
  ];

  /** A run of the list by id (a new algorithm's run goes anywhere in it). */
  const run = (id: string): RunSpec => {
    const r = runs.find((x) => x.id === id);
    if (!r) throw new Error(`no run "${id}" in the list`);
    return r;
  };

  it("covers every algorithm", () => {
    expect(new Set(runs.map((r) => r.algo))).toEqual(new Set(ALGO_IDS));
  });

  it("passes each trainer the keywords that make it train the run's method (TrlTarget.fixed)", () => {
    for (const r of runs) {
      const { settings } = runConfig(experiment, r);
      const p = trlScript(experiment, { spec: r, step: 3 });
      for (const f of trlTarget(r.algo, settings).fixed)
        expect(p, `${r.id}: ${f.name}`).toMatch(new RegExp(`\\n {4}${f.name}=${pyValue(f.value)},`));
    }
    const simpo = runConfig(experiment, run("dpo-2"));
    expect(trlTarget("dpo", simpo.settings).fixed.map((f) => f.name)).toEqual(["cpo_alpha"]);
  });

  it("exports the completion length the lab sampled: capped by the start model's context", () => {
    const arith = { task: "arithmetic" as const, model: "sft" as const, seed: 0 };
    const long = { ...ppo, config: { maxNewTokens: 48 } };
    const p = trlScript(arith, { spec: long, step: 3 });
    expect(p).toMatch(
      /\n {4}response_length=9, {2}# .*The run asked for 48; the start model's context left 9/,
    );
    expect(runConfig(arith, long).trl?.args.response_length).toBe(9);
    expect(runConfig(arith, long).settings.maxNewTokens).toBe(48); // the run's own setting is kept
    const grpo: RunSpec = { id: "grpo-1", algo: "grpo", label: "GRPO", config: { maxNewTokens: 6 } };
    expect(trlScript(arith, { spec: grpo, step: 3 })).toMatch(/\n {4}max_completion_length=6,/); // under the room
    const bon: RunSpec = { id: "bon-1", algo: "bon", label: "BoN", config: { maxNewTokens: 48 } };
    expect(trlScript(arith, { spec: bon, step: 3 })).toMatch(/\nMAX_NEW_TOKENS = 9\n/);
    const senti = trlScript({ ...arith, task: "sentiment" }, { spec: long, step: 3 });
    expect(senti).toMatch(/\n {4}response_length=48,/); // 66 tokens of room
    expect(p).toContain("(start model: the shipped arithmetic SFT model, seed 0,");
    // After a Pipeline hand-off the runs started from the page's model, whose context is the Pipeline's.
    const source = `pipeline: ${describeConfig("nano", { ...PRESETS.nano, contextLength: 32 })} after 40 SFT steps (this page)`;
    const handed = trlScript(arith, { spec: long, step: 3, handedOff: source });
    expect(handed).toContain(
      `(start model: the SFT model trained in the page's Pipeline view (${source}), seed 0,`,
    );
    expect(handed).toMatch(
      /\n {4}response_length=25, {2}# .*asked for 48; the start model's context left 25/,
    );
    expect(runConfig(arith, long, source).trl?.args.response_length).toBe(25);
    expect(runConfig(arith, long, "pipeline: a model of unknown size").trl?.args.response_length).toBe(48);
  });

  const script_pin = (script: string) => script.match(/pip install "trl[^\n]*/)?.[0];

  it("maps the run's settings to TRL's names and values", () => {
    const s = (r: RunSpec, task: "sentiment" | "arithmetic" = "arithmetic") =>
      trlScript({ ...experiment, task }, { spec: r, step: 12 });
    const p = s(run("ppo-1"), "sentiment");
    expect(p).toMatch(/config = PPOConfig\(/);
    expect(p).toMatch(/\n {4}kl_coef=0\.2, {2}# beta/);
    expect(p).toMatch(/\n {4}learning_rate=3e-4,/);
    expect(p).toMatch(/\n {4}response_length=24,/);
    expect(p).toMatch(/#\s+whitenAdvantages = True: .*TRL always whitens/);
    expect(p).not.toMatch(/whiten_rewards=/);
    // TRL cuts per_device_train_batch_size prompts into num_mini_batches minibatches, as the lab's step does.
    const mini = s({ ...ppo, config: { batchPrompts: 12, numMiniBatches: 4 } });
    expect(mini).toMatch(
      /\n {4}per_device_train_batch_size=12, {2}# batchPrompts [^\n]*default in the lab: 8\.\n/,
    );
    expect(mini).toMatch(/\n {4}num_mini_batches=4,/);
    const uneven = s({ ...ppo, config: { batchPrompts: 10, numMiniBatches: 4 } });
    // TRL refuses a batch its minibatches do not divide (exact_div): the nearest count that does, said why.
    expect(uneven).toMatch(/\n {4}per_device_train_batch_size=10,/);
    expect(uneven).toMatch(
      /\n {4}num_mini_batches=2, {2}# [^\n]*The lab split its 10 prompts into 4 minibatches of unequal size; TRL needs 10 divisible by num_mini_batches, so 2 here/,
    );
    expect(s({ ...ppo, config: { klEstimator: "k3" } })).toMatch(
      /\n {4}kl_estimator="k3", {2}# [^\n]*TRL then logs the k3 sum as objective\/kl: the lab's objective\/kl_k3/,
    );
    const prime = s({ ...ppo, config: { batchPrompts: 7, numMiniBatches: 3 } });
    expect(prime).toMatch(/\n {4}num_mini_batches=1, /);
    // The lab's optimiser where TRL's defaults differ, in every trainer's config.
    for (const script of [p, mini]) {
      expect(script).toMatch(/\n {4}adam_beta2=0\.95, {2}# the lab's AdamW/);
      expect(script).toMatch(/\n {4}lr_scheduler_type="constant", {2}# the lab keeps lr constant/);
    }
    expect(script_pin(p)).toBe('pip install "trl>=0.23,<0.27" "transformers<5" datasets torch');
    // KTOTrainer counts examples: two labelled samples per prompt.
    const kto = s({ id: "kto-b", algo: "kto", label: "KTO", config: { batchPrompts: 6 } });
    expect(kto).toMatch(
      /\n {4}per_device_train_batch_size=12, {2}# [^\n]*TRL counts examples: 6 prompts × 2 samples = 12/,
    );
    expect(kto).toMatch(/\n {4}adam_beta2=0\.95,/);
    expect(p).toMatch(
      /\n {4}max_grad_norm=1, {2}# [^\n]*PPOTrainer's own update loop does not clip gradients/,
    );
    // No eval set in the script: PPOTrainer's sample printing (on by default) would read one.
    expect(p).toMatch(
      /\n {4}num_sample_generations=0, {2}# PPOTrainer's periodic sample printing reads an eval set/,
    );
    expect(p).toMatch(/#\s+topK = 0: .*PPOConfig has no `top_k`/);
    expect(p).toMatch(/#\s+entCoef = 0: /);
    expect(p).toMatch(/#\s+valueModel = "shared": .*always trains a separate `value_model`/);
    expect(p).toMatch(/used a value head on\n# the policy's own transformer[\s\S]*\nvalue_model = Auto/);
    const sep = s({ ...ppo, config: { valueModel: "separate" } });
    expect(sep).toMatch(/#\s+valueModel = "separate": .*its `value_model` argument/);
    expect(sep).toMatch(/separate network initialised from the start model[\s\S]*\nvalue_model = Auto/);
    expect(sep).not.toMatch(/valueModel = "shared"/);
    expect(p).toMatch(/AFINN = \{/);
    expect(p).toMatch(/trainer\.train\(\)/);
    const g = s(run("grpo-1"));
    expect(g).toMatch(/from trl import GRPOConfig, GRPOTrainer/);
    expect(g).toMatch(/\n {4}beta=0, /);
    expect(g).toMatch(/\n {4}num_generations=8,/);
    expect(g).toMatch(/\n {4}per_device_train_batch_size=32, {2}# .*4 prompts × 8 samples/);
    expect(g).toMatch(/\n {4}loss_type="dr_grpo",/);
    expect(g).toMatch(/PROMPTS = \[f"\{a\}\+\{b\}=" for a in range\(10, 100\)/);
    expect(g).toMatch(/reward_funcs=reward_fn/);
    expect(s(run("dpo-1"))).toMatch(/FLIP_RATE = 0\.1[\s\S]*DPOConfig\([\s\S]*\n {4}beta=0\.5,/);
    expect(s(run("dpo-2"))).toMatch(
      /CPOConfig\([\s\S]*loss_type="simpo"[\s\S]*simpo_gamma=1\.5[\s\S]*cpo_alpha=0,/,
    );
    const r = s(run("rloo-1"));
    expect(r).toMatch(/RLOOConfig\([\s\S]*num_generations=6,[\s\S]*epsilon=0\.3,[\s\S]*num_iterations=2,/);
    expect(r).not.toMatch(/rloo_k|cliprange|num_ppo_epochs/);
    // TRL's missing_eos_penalty: PPOConfig's keyword; the RLOOConfig the scripts target has none, and says so.
    expect(s({ ...ppo, config: { missingEosPenalty: 1.5 } })).toMatch(/\n {4}missing_eos_penalty=1\.5,/);
    const noEos = s({ id: "rloo-e", algo: "rloo", label: "RLOO", config: { missingEosPenalty: 1 } });
    expect(noEos).not.toMatch(/missing_eos_penalty=/);
    expect(noEos).toMatch(/#\s+missingEosPenalty = 1: .*RLOOConfig has no `missing_eos_penalty`/);
    expect(s(run("reinforce-1"))).toMatch(
      /REINFORCE trainer[\s\S]*\n {4}beta=0\.1,[\s\S]*#\s+baselineDecay = 0\.5/,
    );
    expect(s(run("bon-1"))).toMatch(/N = 16 /);
    expect(s(run("kto-1"))).toMatch(
      /LABELS = "threshold"[\s\S]*KTOConfig\([\s\S]*\n {4}beta=0\.2,[\s\S]*desirable_weight=1\.5,[\s\S]*KTOTrainer\(/,
    );
    expect(s(run("orpo-1"))).toMatch(
      /ORPOConfig\([\s\S]*\n {4}beta=0\.5, {2}# lambda \(λ\)[\s\S]*ORPOTrainer\(/,
    );
    expect(s(run("ei-1"))).toMatch(
      /K = 8 [\s\S]*\n {4}config = SFTConfig\([\s\S]*\n {8}max_steps=3,[\s\S]*\n {4}config\.per_device_train_batch_size = len\(rows\["prompt"\]\)\n[\s\S]*SFTTrainer\(/,
    );
    expect(s(run("safe-1"))).toMatch(
      /COST_LIMIT = 12 [\s\S]*LAMBDA_KP = 0 [\s\S]*lagrange = \{"integral": 0\.5\}[\s\S]*per_device_train_batch_size=32,[\s\S]*GRPOTrainer\(/,
    );
    expect(pyValue(1e-7)).toBe("1e-7");
    expect(pyValue(false)).toBe("False");
    expect(slug('GRPO "β = 0"')).toBe("grpo-beta-0");
    // Runs told apart by a symbol export under two names.
    expect(slug("PPO α")).toBe("ppo-alpha");
    expect(slug("PPO ε_high")).toBe("ppo-epsilon-high");
    expect(slug("λ=0.5, ω")).toBe("lambda-0-5-omega");
    expect(slug("ς Σ")).toBe("sigma-sigma");
    expect(slug("日本")).toBe("run");
  });

  it.skipIf(!python)("compiles with python3 -m py_compile for every algorithm and task", () => {
    const dir = mkdtempSync(join(tmpdir(), "trl-"));
    const files: string[] = [];
    for (const task of ["sentiment", "arithmetic"] as const)
      for (const r of runs) {
        const f = join(dir, `${task}_${r.id}.py`);
        writeFileSync(f, trlScript({ ...experiment, task }, { spec: r, step: 3 }));
        files.push(f);
      }
    execFileSync(python!, ["-W", "error", "-m", "py_compile", ...files], { stdio: "pipe" });
  });

  it.skipIf(!python)("its sample() helper asks the pipeline for n samples with the run's settings", () => {
    const dir = mkdtempSync(join(tmpdir(), "trl-sample-"));
    const sampling = { maxNewTokens: 20, temperature: 0.7, topK: 5 };
    const algos = ["dpo", "orpo", "kto", "expert_iteration", "bon"] as const;
    for (const algo of algos) {
      // Offline DPO samples its pairs as long as the lab's shipped ones (export_trl_semantics.test.ts).
      const config = algo === "dpo" ? { ...sampling, mode: "online" } : sampling;
      const script = trlScript(experiment, { spec: { id: `${algo}-s`, algo, label: algo, config }, step: 1 });
      const from = script.indexOf("MAX_NEW_TOKENS = ");
      const to = script.indexOf('return [o["generated_text"] for o in outs]');
      expect(from, `${algo}: sampling settings`).toBeGreaterThan(0);
      expect(to, `${algo}: sample()`).toBeGreaterThan(from);
      const f = join(dir, `${algo}.py`);
      writeFileSync(
        f,
        `import json\n${script.slice(from, to)}return [o["generated_text"] for o in outs]\n\n` +
          "calls = []\n" +
          "def generator(prompt, **kw):\n" +
          "    calls.append(kw)\n" +
          '    return [{"generated_text": prompt + str(i)} for i in range(kw["num_return_sequences"])]\n' +
          'print(json.dumps({"out": sample(generator, "p", 3), "kw": calls[0]}))\n',
      );
      const got = JSON.parse(execFileSync(python!, [f]).toString());
      expect(got.out, algo).toEqual(["p0", "p1", "p2"]);
      expect(got.kw, algo).toEqual({
        num_return_sequences: 3,
        do_sample: true,
        max_new_tokens: 20,
        temperature: 0.7,
        top_k: 5,
        return_full_text: false,
      });
    }
  });

  it.skipIf(!python)(
    "KTO's annotator labels tied samples by a coin toss, as the lab does (none skipped)",
    () => {
      const script = trlScript(experiment, {
        spec: { id: "kto-t", algo: "kto", label: "KTO", config: {} },
        step: 3,
      });
      const from = script.indexOf("def build_kto_dataset(");
      const end = "return Dataset.from_dict(rows)";
      const to = script.indexOf(end, from) + end.length;
      const f = join(mkdtempSync(join(tmpdir(), "trl-kto-ties-")), "kto.py");
      writeFileSync(
        f,
        "import json, random\nMODEL_NAME = \"m\"\nSEED = 0\nFLIP_RATE = 0\nLABELS = 'annotator'\nTHRESHOLD = 0\n" +
          "def sample(generator, prompt, n):\n    return ['a', 'b'][:n]\n" +
          "def pipeline(*a, **k):\n    return None\n" +
          "def score(prompt, c):\n    return 0\n" +
          "class Dataset:\n    @staticmethod\n    def from_dict(rows):\n        return rows\n" +
          `${script.slice(from, to)}\n` +
          "rows = build_kto_dataset([str(i) for i in range(200)])\n" +
          'first = [c for i, c in enumerate(rows["completion"]) if rows["label"][i]]\n' +
          'print(json.dumps({"rows": len(rows["prompt"]), "a_desirable": first.count("a")}))\n',
      );
      const got = JSON.parse(execFileSync(python!, [f]).toString());
      console.log(
        `KTO script, 200 prompts whose two samples tie: ${got.rows} examples, "a" desirable ${got.a_desirable} times`,
      );
      expect(got.rows).toBe(400);
      expect(got.a_desirable).toBeGreaterThan(70);
      expect(got.a_desirable).toBeLessThan(130);
    },
  );

  it("KTO with labels = threshold labels by the run's reward: the script's score() is that reward", () => {
    const kto = (label: string): RunSpec => ({
      id: "kto-1",
      algo: "kto",
      label: "KTO",
      config: { label, reward: "proxy" },
    });
    expect(trlScript(experiment, { spec: kto("threshold"), step: 2 })).toContain('RM_PATH = "rm.onnx"');
    expect(trlScript(experiment, { spec: kto("annotator"), step: 2 })).not.toContain("RM_PATH");
    // The flip rate only acts on annotator labels: the script says it is unused rather than "TRL has none".
    expect(trlScript(experiment, { spec: kto("threshold"), step: 2 })).toMatch(
      /flipRate.*not used with labels threshold/,
    );
    expect(trlScript(experiment, { spec: kto("annotator"), step: 2 })).toMatch(
      /threshold.*not used with labels annotator/,
    );
  });

  it("best-of-n scores as many batches of prompts as the lab run took steps", () => {
    const bon: RunSpec = { id: "bon-1", algo: "bon", label: "BoN", config: { batchPrompts: 4 } };
    expect(trlScript(experiment, { spec: bon, step: 5 })).toMatch(/\nLAB_STEPS = 5 {2}#/);
    expect(trlScript(experiment, { spec: bon, step: 0 })).toMatch(/\nLAB_STEPS = 1 {2}# .*had not run/);
    expect(trlScript(experiment, { spec: bon, step: 5 })).toContain("PROMPTS[: BATCH_PROMPTS * LAB_STEPS]");
  });

  it.skipIf(!python)("DPO and KTO sample no more pairs than the run trains on (max_steps × batch)", () => {
    const dir = mkdtempSync(join(tmpdir(), "trl-wanted-"));
    for (const [algo, fn] of [
      ["dpo", "build_preferences"],
      ["kto", "build_kto_dataset"],
    ] as const) {
      const script = trlScript(experiment, {
        spec: { id: `${algo}-w`, algo, label: algo, config: {} },
        step: 3,
      });
      // The config comes first: its length decides how many examples to build.
      expect(script.indexOf("config = "), algo).toBeLessThan(
        script.indexOf(`dataset = ${fn}(PROMPTS, config.max_steps`),
      );
      const from = script.indexOf(`def ${fn}(`);
      const end = "return Dataset.from_dict(rows)";
      const to = script.indexOf(end, from) + end.length;
      const f = join(dir, `${algo}.py`);
      writeFileSync(
        f,
        "import json, random\nMODEL_NAME = \"m\"\nSEED = 0\nFLIP_RATE = 0\nLABELS = 'annotator'\nTHRESHOLD = 0\ncalls = []\n" +
          "def sample(generator, prompt, n):\n    calls.append(prompt)\n    return [prompt + 'x', prompt + 'yy'][:n]\n" +
          "def pipeline(*a, **k):\n    return None\n" +
          "def score(prompt, c):\n    return len(c)\n" +
          "class Dataset:\n    @staticmethod\n    def from_dict(rows):\n        return rows\n" +
          `${script.slice(from, to)}\n` +
          `rows = ${fn}([str(i) for i in range(10)], 3)\n` +
          `every = ${fn}([str(i) for i in range(10)])\n` +
          'print(json.dumps({"rows": len(rows["prompt"]), "every": len(every["prompt"]), "calls": len(calls), "used": sorted(set(rows["prompt"]))}))\n',
      );
      const { used, ...got } = JSON.parse(execFileSync(python!, [f]).toString());
      // Prompts drawn at random (seeded), as the lab draws them, not the list's first ones.
      expect(used.length, algo).toBe(Math.ceil(3 / (algo === "dpo" ? 1 : 2)));
      expect(used, algo).not.toEqual(["0", "1", "2"].slice(0, used.length));
      // DPO: a pair per prompt (3 wanted: 3 prompts sampled); KTO: 2 examples per prompt (4 ≥ 3 after 2).
      const per = algo === "dpo" ? 1 : 2;
      expect(got, algo).toEqual({
        rows: per * Math.ceil(3 / per),
        every: 10 * per,
        calls: Math.ceil(3 / per) + 10,
      });
    }
  });

  it.skipIf(!python)("its reward functions score like the lab's gold scorers", () => {
    const dir = mkdtempSync(join(tmpdir(), "trl-reward-"));
    const texts = [
      "I love this, it is good",
      "does not work, no fun at all",
      "The whale was a sea-good beast; god's own terror!",
      "Call me Ishmael",
      "",
      "naïve and HAPPY happy joy",
      "it’s a bad, bad, horrible day -- awful",
      "not happy",
    ];
    const sums: [string, string][] = [
      ["37+45=", "82"],
      ["37+45=", " 82 "],
      ["37+45=", "082"],
      ["37+45=", "81"],
      ["10+10=", "20x"],
      ["99+99=", "198"],
    ];
    const run = (task: "sentiment" | "arithmetic", cases: [string, string][]) => {
      const f = join(dir, `${task}.py`);
      writeFileSync(
        f,
        `import json, math, re, sys\n${rewardPy(task)}\nprint(json.dumps([score(p, c) for p, c in json.load(sys.stdin)]))\n`,
      );
      return JSON.parse(execFileSync(python!, [f], { input: JSON.stringify(cases) }).toString()) as number[];
    };
    const py = run(
      "sentiment",
      texts.map((t) => ["", t]),
    );
    for (const [i, v] of py.entries()) expect(v).toBeCloseTo(sentimentScore(texts[i]), 12);
    expect(py.some((v) => v !== 0)).toBe(true);
    expect(run("arithmetic", sums)).toEqual(sums.map(([p, c]) => arithmeticGold(p, c)));
  });
});
