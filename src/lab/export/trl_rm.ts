/**
 * The reward of an exported TRL script when the run optimised a learned reward model (RUN_FIELDS' `reward`:
 * "proxy", the task's shipped models/<task>/rm.onnx, or "custom", a user's .onnx file) instead of the gold
 * scorer. The Python defines `score(prompt, completion)` over the ONNX model with onnxruntime, feeding it what
 * the lab feeds it for a completion that ended (src/rewards/sources.ts onnxReward, docs/reward-models.md): the
 * lab's character-level tokenizer (models/<task>/tokenizer.json: one id per character, `<unk>` for the rest),
 * `<bos> prompt completion <eos>` cut from the left to the model's max_length, int64 input_ids and
 * attention_mask (one row per call, so no padding), the float32 `scores` output. (The lab leaves EOS off a
 * sample cut at its length limit; TRL's reward functions get decoded text, which cannot say so.) The gold
 * scorer stays in the script as `gold_score` (to evaluate against, as the lab charts reward_gold).
 */
import type { TaskId } from "../../tasks/task";
import type { RewardChoice } from "../settings";
import { rewardPy } from "./trl_rewards";

/**
 * Python defining `score(prompt, completion)` over an ONNX reward model (imports json, numpy, onnxruntime); `task`
 * names the shipped files' folder (null: unknown, a placeholder).
 */
export function onnxRewardPy(task: TaskId | null, choice: "proxy" | "custom" | "pipeline"): string {
  const dir = `public/models/${task ?? "<its task: unknown>"}`;
  const path =
    choice === "proxy"
      ? `"rm.onnx"  # the lab's proxy reward model: ${dir}/rm.onnx in the RLHF Playground repository`
      : choice === "custom"
        ? `"reward_model.onnx"  # PLACEHOLDER: the .onnx reward model you loaded in the lab`
        : `"pipeline_rm.onnx"  # PLACEHOLDER: the Pipeline view's reward model (its "Download RM (.onnx)" button)`;
  return `# The run optimised a learned reward model, not the gold scorer: score() runs it with onnxruntime on the
# lab's character-level tokenizer, as the lab does for a completion that ended: <bos> prompt completion <eos>,
# cut from the left to the model's max_length (docs/reward-models.md); one row at a time, so no padding.
# Needs: pip install onnxruntime numpy
import json

import numpy as np
import onnxruntime

RM_PATH = ${path}
TOKENIZER_PATH = "tokenizer.json"  # ${dir}/tokenizer.json in the RLHF Playground repository
with open(TOKENIZER_PATH, encoding="utf-8") as _f:
    _TOK = json.load(_f)
VOCAB = {**_TOK["model"]["vocab"], **{t["content"]: t["id"] for t in _TOK["added_tokens"]}}
BOS, EOS, UNK = (VOCAB[t] for t in ("<bos>", "<eos>", "<unk>"))
RM = onnxruntime.InferenceSession(RM_PATH)
_MAX = RM.get_modelmeta().custom_metadata_map.get("max_length")
MAX_LENGTH = int(_MAX) if _MAX else None


def encode(text):
    """One id per character (the lab's tokenizers have no merges); unknown characters are <unk>."""
    return [VOCAB.get(ch, UNK) for ch in text]


def score(prompt, completion):
    """The reward model's score of one finished completion. (The lab leaves <eos> off a sample cut at its length
    limit; TRL hands the reward function decoded text, which cannot say whether it was cut, so every completion
    gets one here.)"""
    ids = [BOS, *encode(prompt), *encode(completion), EOS]
    if MAX_LENGTH:
        ids = ids[-MAX_LENGTH:]
    feed = {
        "input_ids": np.array([ids], dtype=np.int64),
        "attention_mask": np.ones((1, len(ids)), dtype=np.int64),
    }
    return float(np.asarray(RM.run(["scores"], feed)[0]).reshape(-1)[0])
`;
}

/**
 * The script's reward section for a run: the gold scorer as `score` (reward "gold"), or the ONNX reward model
 * as `score` with the gold scorer kept as `gold_score`. Needs `import math, re`. `task` null: unknown (an
 * imported run's file did not say), its scorer a placeholder (./trl_rewards.ts UNKNOWN_TASK_PY).
 */
export function runRewardPy(task: TaskId | null, choice: RewardChoice): string {
  if (choice === "gold") return rewardPy(task);
  const gold = rewardPy(task).replace(/\ndef score\(/, "\ndef gold_score(");
  return `${gold}\n\n${onnxRewardPy(task, choice)}`;
}
