/**
 * The trainer part of each exported TRL script, after the reward function and PROMPTS: how the data is made
 * (prompts; preference pairs or labelled samples from the start model, as the lab's annotator makes them),
 * the config (./trl_py.ts configCall) and the trainer. One function per TRL trainer, chosen by
 * {@link scriptBody}; ./trl_imports.ts gives the imports each needs.
 */
import type { AlgoId } from "../registry";
import { configCall, pyValue } from "./trl_py";
import type { TrlMapping } from "./trl_targets";

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

/** The comment above the PPO script's value model: how it relates to the lab run's `valueModel`. */
function valueModelComment(m: TrlMapping): string {
  return m.settings.valueModel === "separate"
    ? `# The value model V(s): a separate network initialised from the start model, as in the lab run
# (valueModel = "separate"). InstructGPT and TRL's examples initialise it from the reward model instead.`
    : `# The value model V(s): TRL's PPOTrainer always trains a separate network. The lab run used a value head on
# the policy's own transformer (valueModel = "shared"), which PPOTrainer does not offer; this is the closest.`;
}

function ppoBody(m: TrlMapping): string {
  return `
tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME, padding_side="left")
if tokenizer.pad_token is None:
    tokenizer.pad_token = tokenizer.eos_token
policy = AutoModelForCausalLM.from_pretrained(MODEL_NAME)
ref_policy = AutoModelForCausalLM.from_pretrained(MODEL_NAME)
${valueModelComment(m)}
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

/**
 * The sampling settings and the `sample(generator, prompt, n)` helper the data-making scripts share: n
 * completions of one prompt, sampled as the lab samples them (temperature, top-k, max new tokens: `tokens`, by
 * default the completion tokens the lab sampled).
 */
function samplingPy(m: TrlMapping, tokens = m.completionTokens): string {
  const s = m.settings;
  const why =
    tokens === m.completionTokens ? "" : "  # as long as the lab's offline pairs (see max_completion_length)";
  return `MAX_NEW_TOKENS = ${pyValue(tokens)}${why}
TEMPERATURE = ${pyValue(s.temperature)}
TOP_K = ${pyValue(s.topK)}


def sample(generator, prompt, n):
    """n completions of prompt, sampled with the lab run's settings."""
    outs = generator(
        prompt,
        num_return_sequences=n,
        do_sample=True,
        max_new_tokens=MAX_NEW_TOKENS,
        temperature=TEMPERATURE,
        top_k=TOP_K,
        return_full_text=False,
    )
    return [o["generated_text"] for o in outs]`;
}

/**
 * The examples an offline trainer uses in the run's length (`max_steps` × the total batch: per device × devices ×
 * accumulation, TrainingArguments' `train_batch_size` counting DataParallel's GPUs and `world_size` the
 * processes), so the script samples no more than it trains on; None when TRL keeps its own length (no
 * `max_steps`: every prompt).
 */
const WANTED =
  "config.max_steps * config.train_batch_size * config.gradient_accumulation_steps * config.world_size if config.max_steps > 0 else None";

function preferenceBody(m: TrlMapping): string {
  const s = m.settings;
  // Offline DPO's pairs are as long as the lab's (trl_semantics.ts), not cut at the charted samples' length.
  const length = m.args.find((a) => a.name === "max_completion_length")?.value;
  return `
FLIP_RATE = ${pyValue(s.flipRate)}  # the lab's simulated annotator flips this share of the labels
${samplingPy(m, typeof length === "number" ? length : m.completionTokens)}


def build_preferences(prompts, wanted=None):
    """Preference pairs as the lab's were built: two samples per prompt from the start model, the one with the
    higher reward chosen (a FLIP_RATE share of labels flipped, as a noisy annotator would). Ties are skipped.
    Stops at \`wanted\` pairs (None: every prompt; sampling is the slow part).
    PLACEHOLDER: use your own preference dataset (columns prompt, chosen, rejected) if you have one."""
    generator = pipeline("text-generation", model=MODEL_NAME)
    rng = random.Random(SEED)
    rows = {"prompt": [], "chosen": [], "rejected": []}
    # In a random order, as the lab draws its prompts (the list's first ones may all look alike).
    for prompt in rng.sample(list(prompts), len(prompts)):
        if wanted is not None and len(rows["prompt"]) >= wanted:
            break
        a, b = sample(generator, prompt, 2)
        if score(prompt, a) == score(prompt, b):
            continue
        if score(prompt, a) < score(prompt, b):
            a, b = b, a
        if rng.random() < FLIP_RATE:
            a, b = b, a
        rows["prompt"].append(prompt)
        rows["chosen"].append(a)
        rows["rejected"].append(b)
    if not rows["prompt"]:
        raise SystemExit("No preference pairs: every prompt's two samples scored the same (ties are skipped). "
                         "Is MODEL_NAME a model that can do the task? Or use your own dataset.")
    return Dataset.from_dict(rows)


${configCall(m, [])}

dataset = build_preferences(PROMPTS, ${WANTED})
model = AutoModelForCausalLM.from_pretrained(MODEL_NAME)
tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME)
if tokenizer.pad_token is None:
    tokenizer.pad_token = tokenizer.eos_token

trainer = ${m.target.trainer}(model=model, args=config, train_dataset=dataset, processing_class=tokenizer)
trainer.train()
trainer.save_model(OUTPUT_DIR)
`;
}

function ktoBody(m: TrlMapping): string {
  const s = m.settings;
  return `
LABELS = ${pyValue(s.label)}  # "annotator": the preferred of two samples is desirable; "threshold": score >= THRESHOLD
THRESHOLD = ${pyValue(s.threshold)}
FLIP_RATE = ${pyValue(s.flipRate)}  # the lab's simulated annotator flips this share of its labels
${samplingPy(m)}


def build_kto_dataset(prompts, wanted=None):
    """Unpaired desirable/undesirable examples as the lab labels them: two samples per prompt from the start
    model. Stops at \`wanted\` examples (None: every prompt; sampling is the slow part).
    PLACEHOLDER: use your own labelled data (columns prompt, completion, label) if you have some."""
    generator = pipeline("text-generation", model=MODEL_NAME)
    rng = random.Random(SEED)
    rows = {"prompt": [], "completion": [], "label": []}
    # In a random order, as the lab draws its prompts (the list's first ones may all look alike).
    for prompt in rng.sample(list(prompts), len(prompts)):
        if wanted is not None and len(rows["prompt"]) >= wanted:
            break
        a, b = sample(generator, prompt, 2)
        if LABELS == "threshold":
            labelled = [(a, score(prompt, a) >= THRESHOLD), (b, score(prompt, b) >= THRESHOLD)]
        else:
            # The better-scoring sample is desirable; a tie is a coin toss, as the lab's annotator does it.
            sa, sb = score(prompt, a), score(prompt, b)
            if sa < sb or (sa == sb and rng.random() < 0.5):
                a, b = b, a
            if rng.random() < FLIP_RATE:
                a, b = b, a
            labelled = [(a, True), (b, False)]
        for completion, label in labelled:
            rows["prompt"].append(prompt)
            rows["completion"].append(completion)
            rows["label"].append(label)
    if not rows["prompt"]:
        raise SystemExit("No labelled examples: PROMPTS is empty. Use your own dataset.")
    return Dataset.from_dict(rows)


${configCall(m, [])}

dataset = build_kto_dataset(PROMPTS, ${WANTED})
model = AutoModelForCausalLM.from_pretrained(MODEL_NAME)
tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME)
if tokenizer.pad_token is None:
    tokenizer.pad_token = tokenizer.eos_token

trainer = KTOTrainer(model=model, args=config, train_dataset=dataset, processing_class=tokenizer)
trainer.train()
trainer.save_model(OUTPUT_DIR)
`;
}

/** Safe RLHF's cost in Python: `cost(completion, ids)` per the run's `cost` setting. */
const SAFE_COSTS: Record<string, { unit: string; py: string }> = {
  length: { unit: "completion tokens", py: "len(ids)" },
  positive_words: {
    unit: "positive AFINN words per completion",
    py: "sum(1 for v in afinn_hits(completion) if v > 0)",
  },
};

function safeRlhfBody(m: TrlMapping): string {
  const s = m.settings;
  const cost = SAFE_COSTS[String(s.cost)];
  if (!cost) throw new RangeError(`Safe RLHF: no TRL cost for "${s.cost}"`);
  return `
COST_LIMIT = ${pyValue(s.costLimit)}  # d: the average cost (${cost.unit}) the multiplier enforces
LAMBDA_LR = ${pyValue(s.lambdaLr)}  # eta: step size of the multiplier
LAMBDA_KP = ${pyValue(s.lambdaKp ?? 0)}  # K_P: proportional gain (PID Lagrangian, Stooke et al. 2020); 0 = plain rule
lagrange = {"integral": ${pyValue(s.lambdaInit)}}  # lambda_I, from lambda_0


def cost(completion, ids):
    """The cost c of a completion (the lab's "${s.cost}" cost: ${cost.unit})."""
    return ${cost.py}


def reward_fn(prompts, completions, completion_ids, **kwargs):
    """Safe RLHF's Lagrangian reward R - lambda * c (Dai et al. 2023), with
    lambda = max(0, lambda_I + K_P * (mean c - d)) for this batch; after it,
    lambda_I <- max(0, lambda_I + eta * (mean c - d)), as the lab does each step."""
    costs = [cost(c, ids) for c, ids in zip(completions, completion_ids)]
    excess = sum(costs) / len(costs) - COST_LIMIT
    lam = max(0.0, lagrange["integral"] + LAMBDA_KP * excess)
    rewards = [score(p, c) - lam * k for p, c, k in zip(prompts, completions, costs)]
    lagrange["integral"] = max(0.0, lagrange["integral"] + LAMBDA_LR * excess)
    return rewards


dataset = Dataset.from_dict({"prompt": PROMPTS})

${configCall(m, [])}

trainer = GRPOTrainer(model=MODEL_NAME, reward_funcs=reward_fn, args=config, train_dataset=dataset)
trainer.train()
trainer.save_model(OUTPUT_DIR)
print(f"final lambda_I {lagrange['integral']:.4f}")
`;
}

function expertIterationBody(m: TrlMapping, rounds: number | null): string {
  const s = m.settings;
  return `
K = ${pyValue(s.k)}  # completions sampled per prompt each round
KEEP = ${pyValue(s.keep)}  # "best": each prompt's best completion; "threshold": every one scoring >= THRESHOLD
THRESHOLD = ${pyValue(s.threshold)}
BATCH_PROMPTS = ${pyValue(s.batchPrompts)}
${
  rounds === null
    ? "ROUNDS = 20  # PLACEHOLDER: the lab run had not trained (it runs rounds until paused)"
    : `ROUNDS = ${rounds}  # the lab run's steps: one round each`
}
${samplingPy(m)}


tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME)
if tokenizer.pad_token is None:
    tokenizer.pad_token = tokenizer.eos_token
model = AutoModelForCausalLM.from_pretrained(MODEL_NAME)
rng = random.Random(SEED)
optimizer = None  # one AdamW for every round: the lab keeps its optimizer's moments from round to round
for round_index in range(ROUNDS):
    # Sample K completions per prompt from the current model, keep the best (or those above the threshold)...
    generator = pipeline("text-generation", model=model, tokenizer=tokenizer)
    rows = {"prompt": [], "completion": []}
    for prompt in rng.sample(PROMPTS, min(BATCH_PROMPTS, len(PROMPTS))):
        scored = sorted(((score(prompt, c), c) for c in sample(generator, prompt, K)), reverse=True)
        kept = scored[:1] if KEEP == "best" else [x for x in scored if x[0] >= THRESHOLD]
        for _, completion in kept:
            rows["prompt"].append(prompt)
            rows["completion"].append(completion)
    if not rows["prompt"]:
        continue
    # ...and fine-tune on them (loss on completion tokens only).
${configCall(m, [], "    ")}
    # The lab's fine-tuning step is one batch of every kept completion (KEEP "threshold" can keep up to K per
    # prompt): so is each step here.
    config.per_device_train_batch_size = len(rows["prompt"])
    trainer = SFTTrainer(
        model=model,
        args=config,
        train_dataset=Dataset.from_dict(rows),
        processing_class=tokenizer,
        optimizers=(optimizer, None),  # None: the trainer builds config's (constant) schedule
    )
    if optimizer is None:
        # The trainer's own AdamW (config's lr, betas, eps; no weight decay on biases and norms, as in the lab),
        # made once and handed to every later round.
        optimizer = trainer.create_optimizer()
    trainer.train()
    model = trainer.model
# Saved without a trainer: a run whose rounds all kept nothing still has its (start) model.
model.save_pretrained(OUTPUT_DIR)
tokenizer.save_pretrained(OUTPUT_DIR)
`;
}

function bonBody(m: TrlMapping, steps: number): string {
  const s = m.settings;
  return `
N = ${pyValue(s.n)}  # samples per prompt; the best by the reward is kept
BATCH_PROMPTS = ${pyValue(s.batchPrompts)}
LAB_STEPS = ${Math.max(1, steps)}  # the lab run's steps${steps > 0 ? "" : " (it had not run: one batch)"}, a fresh batch of BATCH_PROMPTS prompts each
${samplingPy(m)}


generator = pipeline("text-generation", model=MODEL_NAME)
random.Random(SEED).shuffle(PROMPTS)
best, mean = [], []
for prompt in PROMPTS[: BATCH_PROMPTS * LAB_STEPS]:
    scores = [score(prompt, c) for c in sample(generator, prompt, N)]
    best.append(max(scores))
    mean.append(sum(scores) / len(scores))
    print(f"{prompt!r}: best {max(scores):.3f} of {N}")
print(f"mean reward {sum(mean) / len(mean):.3f}, best-of-{N} {sum(best) / len(best):.3f}")
`;
}

/**
 * The trainer part of the script for a run of `algo`; `rounds`: expert iteration's round count (./trl_length.ts;
 * null: a placeholder); `steps`: the lab run's steps (best-of-n scores that many batches of prompts).
 */
export function scriptBody(algo: AlgoId, m: TrlMapping, rounds: number | null = null, steps = 0): string {
  switch (algo) {
    case "ppo":
      return ppoBody(m);
    case "grpo":
    case "rloo":
    case "reinforce":
      return onlineBody(m);
    case "dpo":
    case "orpo":
      return preferenceBody(m);
    case "kto":
      return ktoBody(m);
    case "safe_rlhf":
      return safeRlhfBody(m);
    case "expert_iteration":
      return expertIterationBody(m, rounds);
    case "bon":
      return bonBody(m, steps);
    default:
      throw new RangeError(`no TRL script for ${algo satisfies never}`);
  }
}
