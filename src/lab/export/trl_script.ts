/**
 * A run as a ready-to-run TRL script (Python): the path for users who outgrow the browser. It holds the run's
 * settings mapped to TRL's config keywords (./trl_targets.ts; settings without one are listed as comments),
 * a model and a dataset placeholder, the task's reward function (./trl_rewards.ts), the trainer and
 * `trainer.train()`. Written for TRL ≥ 0.23 (PPO is imported from trl.experimental where it moved).
 */
import type { Field } from "../../algorithms/fields";
import type { RunSpec, SettingValue } from "../protocol";
import { ALGORITHMS } from "../registry";
import type { ExperimentRef } from "./run_file";
import { promptsPy, rewardPy } from "./trl_rewards";
import { type TrlMapping, trlMapping } from "./trl_targets";

/** What the script needs to know about the run. */
export interface ScriptRun {
  spec: RunSpec;
  step: number;
}

/** The placeholder model: small, instruction-tuned, public. */
export const PLACEHOLDER_MODEL = "Qwen/Qwen2.5-0.5B-Instruct";

/** A Python literal of a setting value. */
export function pyValue(v: SettingValue): string {
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return JSON.stringify(v);
  return Number.isInteger(v) ? String(v) : String(v).replace(/^(-?)\./, "$10.");
}

/** One line of a comment, without line breaks. */
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** A file-name-safe slug of a label, e.g. "GRPO (β = 0)" → "grpo-0". */
export function slug(label: string): string {
  const s = label
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s || "run";
}

/** "beta (β)", or just "lr" when the label is the key. */
const fieldName = (f: Field) => (f.label === f.key ? f.key : `${f.key} (${f.label})`);

function configCall(m: TrlMapping, extra: string[]): string {
  const lines = [
    `config = ${m.target.config}(`,
    "    output_dir=OUTPUT_DIR,",
    "    seed=SEED,",
    "    logging_steps=1,",
    '    report_to="none",',
    ...extra.map((e) => `    ${e},`),
  ];
  for (const a of m.args) {
    const what = a.field ? `${fieldName(a.field)}: ${a.field.doc}` : "";
    const changed = a.changed && a.field ? ` Lab default: ${pyValue(a.field.default)}.` : "";
    const note = a.note ? ` ${a.note}.` : "";
    lines.push(`    ${a.name}=${pyValue(a.value)},  # ${oneLine(`${what}${changed}${note}`)}`);
  }
  lines.push(")");
  if (m.unmapped.length) {
    lines.push(
      `# Lab settings with no keyword in ${m.target.config} (for reference; TRL uses its own behaviour):`,
    );
    for (const u of m.unmapped)
      lines.push(`#   ${u.field.key} = ${pyValue(u.value)}: ${oneLine(`${u.field.doc} (${u.reason})`)}`);
  }
  return lines.join("\n");
}

function onlineBody(m: TrlMapping): string {
  return `
def reward_fn(prompts, completions, **kwargs):
    """TRL reward function: one float per completion."""
    return [score(p, c) for p, c in zip(prompts, completions)]


dataset = Dataset.from_dict({"prompt": PROMPTS})

${configCall(m, [])}

trainer = ${m.target.trainer}(model=MODEL_NAME, reward_funcs=reward_fn, args=config, train_dataset=dataset)
trainer.train()
trainer.save_model(OUTPUT_DIR)
`;
}

function ppoBody(m: TrlMapping): string {
  return `
tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME, padding_side="left")
if tokenizer.pad_token is None:
    tokenizer.pad_token = tokenizer.eos_token
policy = AutoModelForCausalLM.from_pretrained(MODEL_NAME)
ref_policy = AutoModelForCausalLM.from_pretrained(MODEL_NAME)
value_model = AutoModelForSequenceClassification.from_pretrained(MODEL_NAME, num_labels=1)
value_model.config.pad_token_id = tokenizer.pad_token_id
PROMPTS_BY_LENGTH = sorted(set(PROMPTS), key=len, reverse=True)


class TextRewardBackbone(torch.nn.Module):
    """Scores each decoded row with score(); every position carries the row's reward."""

    def forward(self, input_ids, attention_mask=None, **kwargs):
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        rewards = []
        for ids, mask in zip(input_ids, attention_mask):
            text = tokenizer.decode(ids[mask.bool()], skip_special_tokens=True)
            prompt = next((p for p in PROMPTS_BY_LENGTH if text.startswith(p)), "")
            rewards.append(score(prompt, text[len(prompt) :]))
        r = torch.tensor(rewards, dtype=torch.float32, device=input_ids.device)
        return SimpleNamespace(hidden_states=[r[:, None, None].expand(-1, input_ids.shape[1], 1)])


class FunctionRewardModel(torch.nn.Module):
    """TRL's PPOTrainer wants a reward *model* (it calls model.<base_model_prefix>(...) and model.score(...) at
    the last completion token); this one has no weights and runs the reward function on the decoded text."""

    base_model_prefix = "backbone"

    def __init__(self):
        super().__init__()
        self.backbone = TextRewardBackbone()
        self.score = torch.nn.Identity()


dataset = Dataset.from_dict({"prompt": PROMPTS}).map(
    lambda row: {"input_ids": tokenizer(row["prompt"])["input_ids"]}, remove_columns=["prompt"]
)

${configCall(m, ['stop_token="eos"'])}

trainer = PPOTrainer(
    args=config,
    processing_class=tokenizer,
    model=policy,
    ref_model=ref_policy,
    reward_model=FunctionRewardModel(),
    value_model=value_model,
    train_dataset=dataset,
)
trainer.train()
trainer.save_model(OUTPUT_DIR)
`;
}

function dpoBody(m: TrlMapping): string {
  const s = m.settings;
  return `
MAX_NEW_TOKENS = ${pyValue(s.maxNewTokens)}
TEMPERATURE = ${pyValue(s.temperature)}
TOP_K = ${pyValue(s.topK)}
FLIP_RATE = ${pyValue(s.flipRate)}  # the lab's simulated annotator flips this share of the labels


def build_preferences(prompts):
    """Preference pairs as the lab builds them: two samples per prompt from the start model, the one with the
    higher reward chosen (a FLIP_RATE share of labels flipped, as a noisy annotator would). Ties are skipped.
    PLACEHOLDER: use your own preference dataset (columns prompt, chosen, rejected) if you have one."""
    generator = pipeline("text-generation", model=MODEL_NAME)
    rng = random.Random(SEED)
    rows = {"prompt": [], "chosen": [], "rejected": []}
    for prompt in prompts:
        outs = generator(
            prompt,
            num_return_sequences=2,
            do_sample=True,
            max_new_tokens=MAX_NEW_TOKENS,
            temperature=TEMPERATURE,
            top_k=TOP_K,
            return_full_text=False,
        )
        a, b = (o["generated_text"] for o in outs)
        if score(prompt, a) == score(prompt, b):
            continue
        if score(prompt, a) < score(prompt, b):
            a, b = b, a
        if rng.random() < FLIP_RATE:
            a, b = b, a
        rows["prompt"].append(prompt)
        rows["chosen"].append(a)
        rows["rejected"].append(b)
    return Dataset.from_dict(rows)


dataset = build_preferences(PROMPTS)
model = AutoModelForCausalLM.from_pretrained(MODEL_NAME)
tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME)
if tokenizer.pad_token is None:
    tokenizer.pad_token = tokenizer.eos_token

${configCall(m, [])}

trainer = ${m.target.trainer}(model=model, args=config, train_dataset=dataset, processing_class=tokenizer)
trainer.train()
trainer.save_model(OUTPUT_DIR)
`;
}

function bonBody(m: TrlMapping): string {
  const s = m.settings;
  return `
N = ${pyValue(s.n)}  # samples per prompt; the best by the reward is kept
BATCH_PROMPTS = ${pyValue(s.batchPrompts)}
MAX_NEW_TOKENS = ${pyValue(s.maxNewTokens)}
TEMPERATURE = ${pyValue(s.temperature)}
TOP_K = ${pyValue(s.topK)}

generator = pipeline("text-generation", model=MODEL_NAME)
random.Random(SEED).shuffle(PROMPTS)
best, mean = [], []
for prompt in PROMPTS[:BATCH_PROMPTS]:
    outs = generator(
        prompt,
        num_return_sequences=N,
        do_sample=True,
        max_new_tokens=MAX_NEW_TOKENS,
        temperature=TEMPERATURE,
        top_k=TOP_K,
        return_full_text=False,
    )
    scores = [score(prompt, o["generated_text"]) for o in outs]
    best.append(max(scores))
    mean.append(sum(scores) / len(scores))
    print(f"{prompt!r}: best {max(scores):.3f} of {N}")
print(f"mean reward {sum(mean) / len(mean):.3f}, best-of-{N} {sum(best) / len(best):.3f}")
`;
}

function imports(m: TrlMapping): string {
  const cfg = m.target.config;
  const base = ["import math", "import random", "import re"];
  switch (m.target.trainer) {
    case "PPOTrainer":
      return [
        ...base,
        "from types import SimpleNamespace",
        "",
        "import torch",
        "from datasets import Dataset",
        "from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer",
        "",
        "try:",
        "    from trl.experimental.ppo import PPOConfig, PPOTrainer",
        "except ImportError:  # TRL before PPO moved to trl.experimental",
        "    from trl import PPOConfig, PPOTrainer",
      ].join("\n");
    case "DPOTrainer":
    case "CPOTrainer":
      return [
        ...base,
        "",
        "from datasets import Dataset",
        "from transformers import AutoModelForCausalLM, AutoTokenizer, pipeline",
        `from trl import ${cfg}, ${m.target.trainer}`,
      ].join("\n");
    case null:
      return [...base, "", "from transformers import pipeline"].join("\n");
    default:
      return [
        ...base,
        "",
        "from datasets import Dataset",
        `from trl import ${cfg}, ${m.target.trainer}`,
      ].join("\n");
  }
}

/** The TRL script of a run (Python 3 source). */
export function trlScript(experiment: ExperimentRef, run: ScriptRun, now = new Date()): string {
  const { algo, label } = run.spec;
  const m = trlMapping(algo, run.spec.config);
  const title = ALGORITHMS[algo].title;
  const file = `${slug(label)}_trl.py`;
  const note = m.target.note ? `\n${m.target.note}\n` : "";
  const body =
    m.target.trainer === "PPOTrainer"
      ? ppoBody(m)
      : m.target.trainer === null
        ? bonBody(m)
        : algo === "dpo"
          ? dpoBody(m)
          : onlineBody(m);
  // The label goes into a docstring: no quotes or backslashes that could end it or start an escape.
  const name = oneLine(label).replace(/[\\"]/g, "'");
  return `#!/usr/bin/env python3
"""${name}: ${title} on the ${experiment.task} task, exported from RLHF Playground (${now.toISOString().slice(0, 10)}).

In the lab this run trained a tiny GPT in the browser (start model "${experiment.model}", seed ${experiment.seed},
${run.step} steps). This script runs the same algorithm with the same settings (mapped to TRL's names) and the
same reward with TRL on a real model. Replace the placeholders (MODEL_NAME, PROMPTS), then:

    pip install "trl>=0.23" transformers datasets torch
    python ${file}
${note}"""
${imports(m)}

MODEL_NAME = "${PLACEHOLDER_MODEL}"  # PLACEHOLDER: your SFT model (the lab's models are tiny char-level GPTs)
SEED = ${experiment.seed}
OUTPUT_DIR = "${slug(label)}-trl"

${rewardPy(experiment.task)}

${promptsPy(experiment.task)}
${body}`;
}
