import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { trlLength } from "../../src/lab/export/trl_length";
import { trlScript } from "../../src/lab/export/trl_script";
import type { RunSpec } from "../../src/lab/protocol";
import { ALGO_IDS } from "../../src/lab/registry";
import { python3 } from "../helpers/python";

/**
 * The exported TRL script trains as long as the lab run did, in each trainer's own unit (src/lab/export/
 * trl_length.ts); without it TRL would run 3 epochs over PROMPTS (8,100 arithmetic prompts).
 */
const arith = { task: "arithmetic" as const, model: "sft" as const, seed: 0 };
const spec = (algo: RunSpec["algo"], config: RunSpec["config"] = {}): RunSpec => ({
  id: `${algo}-1`,
  algo,
  label: algo,
  config,
});
const script = (r: RunSpec, step: number) => trlScript(arith, { spec: r, step });

describe("TRL script length", () => {
  it("GRPO and RLOO count an optimizer step per update: max_steps = steps × num_iterations", () => {
    expect(script(spec("grpo", { numIterations: 4 }), 30)).toMatch(
      /\n {4}max_steps=120, {2}# the lab run's 30 steps × num_iterations 4/,
    );
    expect(script(spec("grpo"), 30)).toMatch(/\n {4}max_steps=30, {2}#/); // μ = 1 by default
    expect(script(spec("rloo", { numIterations: 2 }), 5)).toMatch(/\n {4}max_steps=10,/);
    expect(script(spec("safe_rlhf", { numIterations: 3 }), 5)).toMatch(/\n {4}max_steps=15,/);
    expect(script(spec("reinforce"), 7)).toMatch(/\n {4}max_steps=7,/);
  });

  it("PPO counts prompts: total_episodes = steps × prompts per step", () => {
    const p = script(spec("ppo", { batchPrompts: 12 }), 12);
    expect(p).toMatch(/\n {4}total_episodes=144, {2}# the lab run's 12 steps × 12 prompts/);
    expect(p).not.toMatch(/max_steps=/);
  });

  it("offline trainers take one batch a step; expert iteration one round a step, with one optimizer", () => {
    for (const algo of ["dpo", "kto", "orpo"] as const)
      expect(script(spec(algo), 9), algo).toMatch(/\n {4}max_steps=9, {2}# the lab run's 9 steps/);
    expect(script(spec("dpo", { lossType: "simpo" }), 9)).toMatch(/CPOConfig\([\s\S]*\n {4}max_steps=9,/);
    const ei = script(spec("expert_iteration", { sftSteps: 3 }), 7);
    expect(ei).toMatch(/\nROUNDS = 7 {2}# the lab run's steps/);
    expect(ei).toMatch(/\n {8}max_steps=3,/); // each round's own SFT steps
    // One optimizer for every round, as the lab keeps its AdamW moments from round to round.
    expect(ei).toMatch(/\noptimizer = None[^\n]*\nfor round_index in range\(ROUNDS\):/);
    expect(ei).toMatch(/SFTTrainer\([\s\S]*optimizers=\(optimizer, None\)/);
    expect(ei).toMatch(
      / {4}if optimizer is None:\n(?: {8}#[^\n]*\n)* {8}optimizer = trainer\.create_optimizer\(\)/,
    );
    expect(script(spec("bon"), 4)).not.toMatch(/max_steps|total_episodes|ROUNDS/);
  });

  it("a run that has not trained keeps TRL's length and says so", () => {
    const g = script(spec("grpo"), 0);
    expect(g).not.toMatch(/max_steps=/);
    expect(g).toContain("The run had not trained yet, so TRL trains its own length");
    expect(script(spec("expert_iteration"), 0)).toMatch(/\nROUNDS = 20 {2}# PLACEHOLDER/);
    expect(script(spec("ppo"), 0)).toContain("add total_episodes (prompts; PPOTrainer ignores max_steps)");
  });

  it("has a length for every algorithm that trains", () => {
    for (const algo of ALGO_IDS) {
      const l = trlLength(algo, { numIterations: 2, batchPrompts: 4 }, 5);
      if (algo === "bon") expect(l).toEqual({ arg: null, rounds: null, note: null });
      else expect(l.arg !== null || l.rounds === 5, algo).toBe(true);
    }
  });

  /** Stand-ins for datasets, transformers and trl that record what the script asks of them. */
  const STUBS: Record<string, string> = {
    datasets: `class Dataset:
    @staticmethod
    def from_dict(d):
        return d
`,
    transformers: `class _Saves:
    def save_pretrained(self, path):
        pass
class _Model(_Saves):
    def parameters(self):
        return []
class _Tok(_Saves):
    pad_token = None
    eos_token = "<eos>"
class AutoModelForCausalLM:
    @staticmethod
    def from_pretrained(name):
        return _Model()
class AutoTokenizer:
    @staticmethod
    def from_pretrained(name):
        return _Tok()
def pipeline(task, model, tokenizer):
    return lambda prompt, **kw: [{"generated_text": str(i)} for i in range(kw["num_return_sequences"])]
`,
    trl: `class SFTConfig:
    def __init__(self, **kw):
        self.adam_beta1 = 0.9
        self.adam_epsilon = 1e-8
        self.__dict__.update(kw)
class _AdamW:
    def __init__(self, args):
        self.kw = {"lr": args.learning_rate, "betas": [args.adam_beta1, args.adam_beta2], "weight_decay": args.weight_decay}
class SFTTrainer:
    made = []
    optimizers_made = []
    def __init__(self, model, args, train_dataset, processing_class, optimizers=(None, None)):
        self.model = model
        self.args = args
        self.optimizers = optimizers
        self.rows = len(train_dataset["prompt"])
        SFTTrainer.made.append(self)
    def create_optimizer(self):
        opt = _AdamW(self.args)
        SFTTrainer.optimizers_made.append(opt)
        return opt
    def train(self):
        self.trained_with = self.optimizers[0] or (SFTTrainer.optimizers_made[-1] if SFTTrainer.optimizers_made else None)
`,
  };
  const python = python3();

  it.skipIf(!python)(
    "expert iteration's script runs ROUNDS rounds on one AdamW with the run's settings",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "trl-ei-"));
      for (const [name, src] of Object.entries(STUBS)) {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, "__init__.py"), src);
      }
      const r = spec("expert_iteration", { k: 3, batchPrompts: 2, lr: 0.002, weightDecay: 0.01 });
      const f = join(dir, "ei.py");
      writeFileSync(
        f,
        `${script(r, 4)}
import json, trl
t = trl.SFTTrainer.made
made = trl.SFTTrainer.optimizers_made
print(json.dumps({"adamw": [a.kw for a in made], "trainers": len(t),
    "same": all(x.trained_with is made[0] and x.optimizers[1] is None for x in t),
    "handed": [x.optimizers[0] is made[0] for x in t],
    "rows": [x.rows for x in t]}))
`,
      );
      const out = execFileSync(python as string, [f], { cwd: dir, env: { ...process.env, PYTHONPATH: dir } });
      const got = JSON.parse(out.toString().trim().split("\n").at(-1) ?? "");
      expect(got.trainers).toBe(4); // ROUNDS = the run's 4 steps
      expect(got.same).toBe(true);
      expect(got.rows).toEqual([2, 2, 2, 2]); // KEEP "best": one completion per prompt
      expect(got.adamw).toEqual([{ lr: 0.002, betas: [0.9, 0.95], weight_decay: 0.01 }]); // made once
      expect(got.handed).toEqual([false, true, true, true]); // the first round's trainer made it
    },
  );
});
