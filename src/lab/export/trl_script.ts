/**
 * A run as a ready-to-run TRL script (Python): the path for users who outgrow the browser. It holds the run's
 * settings mapped to TRL's config keywords (./trl_targets.ts; settings without one are listed as comments),
 * a model and a dataset placeholder, the task's reward function (./trl_rewards.ts), the trainer and
 * `trainer.train()`. Written for TRL 0.23–0.26, which it pins, and for TRL 1.x wherever TRL 1.x still has the
 * trainer (all but PPO: see pipText). The parts:
 * ./trl_targets.ts (which trainer, which keywords), ./trl_bodies.ts (data, config, trainer per trainer),
 * ./trl_rewards.ts (the reward in Python), ./trl_py.ts (Python literals and the config call), ./trl_length.ts
 * (how long it trains: as long as the run did), ./trl_imports.ts (the imports per trainer).
 */

import { startRoom } from "../experiment_change";
import type { Marker, RunSpec, SettingValue } from "../protocol";
import { ALGORITHMS } from "../registry";
import { labelsFromGold, rewardOf, TASK_COSTS } from "../settings";
import { changesText } from "./changes";
import type { RunOrigin } from "./origin";
import type { ExperimentRef } from "./run_file";
import { scriptBody } from "./trl_bodies";
import { scriptImports, TRL_0X_PIP } from "./trl_imports";
import { trlLength } from "./trl_length";
import { oneLine, slug } from "./trl_py";
import { promptsPy } from "./trl_rewards";
import { runRewardPy } from "./trl_rm";
import { OFFLINE_PAIR_TOKENS } from "./trl_semantics";
import { trlMapping } from "./trl_targets";
import { importedNote, placeholders, scriptWhere, startModelText } from "./trl_where";
import { untrainedChanges, untrainedText } from "./untrained";

export { pyValue, slug } from "./trl_py";

/** What the script needs to know about the run. */
export interface ScriptRun {
  spec: RunSpec;
  step: number;
  /**
   * The model the run started from when it is not the experiment's: the Pipeline's hand-off (its model
   * source, "pipeline: nano (2 layers, C = 32, context 32) after …"): completions are capped at its context.
   */
  handedOff?: string | null;
  /** Settings changed after the last step (the page's RunState.untrained; see ./untrained.ts). */
  untrained?: Record<string, SettingValue | null>;
  /** The run's markers: mid-run setting changes are named in a comment at the top (./changes.ts). */
  markers?: readonly Marker[];
  /**
   * Imported for comparison: the script is for its own file's task, start model and seed (`origin`; none or a
   * field left out: unknown, a placeholder), not this lab's experiment or hand-off (./trl_where.ts).
   */
  comparison?: boolean;
  origin?: RunOrigin;
}

/**
 * The comment that opens the script of a run whose settings changed mid-run ("" when none): TRL's config is
 * constant for a whole training, so the script cannot replay them; it uses the final values.
 */
export function midRunComment(markers: readonly Marker[] | undefined): string {
  const text = changesText(markers);
  if (!text) return "";
  return `# NOTE: this run's settings changed mid-run in the lab: ${oneLine(text)}.
# TRL's config is constant for a whole training, so this script uses the final values throughout: its run is
# not the lab's. Train in two parts (resume from the first part's checkpoint with the new values) to replay it.
`;
}

/**
 * The placeholder model: small, public, and a base model, since the prompts are bare text as in the lab ("37+45=",
 * a review's first words) with no chat template, which an instruction-tuned model expects.
 */
export const PLACEHOLDER_MODEL = "Qwen/Qwen2.5-0.5B";

/**
 * The install line and which TRL versions the script runs on. PPOTrainer is gone from TRL 1.x (checked on 1.13),
 * so a PPO script pins 0.23–0.26; the others also run on TRL 1.x, where CPO and ORPO live in trl.experimental and
 * DPOConfig and KTOConfig lost max_completion_length (the script handles both: ./trl_imports.ts, ./trl_py.ts).
 * `scripts/trl-check/check.sh` runs every trainer's script on TRL 1.13 with a tiny local model.
 */
function pipText(trainer: string | null): string {
  const old = `    ${TRL_0X_PIP}`;
  if (trainer === "PPOTrainer")
    return `${old}

(PPOTrainer needs TRL 0.23-0.26: TRL 1.x removed it. Those TRL versions predate transformers 5.)`;
  return `${old}

or with TRL 1.x (checked on TRL 1.13 with transformers 5.17):

    pip install "trl>=1.13,<2" datasets torch`;
}

/**
 * The TRL script of a run (Python 3 source) trained on `experiment` (this lab's; a comparison run's is its own
 * origin's, ./trl_where.ts); `now` dates its docstring.
 * @throws RangeError if the run's settings fail validation (an unknown key, or a value of the wrong type or out of
 *   range: {@link trlMapping}), or a Safe RLHF run's cost is neither "length" nor one of the task's costs.
 */
export function trlScript(experiment: ExperimentRef, run: ScriptRun, now = new Date()): string {
  const { algo, label } = run.spec;
  const where = scriptWhere(experiment, run);
  const { task } = where;
  const cost = run.spec.config.cost;
  if (
    algo === "safe_rlhf" &&
    cost !== undefined &&
    cost !== "length" &&
    task !== null &&
    !TASK_COSTS[task].includes(String(cost))
  )
    throw new RangeError(`the ${task} task has no cost "${cost}" (Safe RLHF): no script for it`);
  const room = startRoom(where.room.task, where.room.model, where.room.handedOff);
  const m = trlMapping(algo, run.spec.config, room, task === null ? undefined : OFFLINE_PAIR_TOKENS[task]);
  const title = ALGORITHMS[algo].title;
  const file = `${slug(label)}_trl.py`;
  const note = m.target.note ? `\n${m.target.note}\n` : "";
  // As long as the lab run trained (TRL's default would be 3 epochs over PROMPTS).
  const length = trlLength(algo, m.settings, run.step);
  if (length.arg) m.args.push(length.arg);
  const body = scriptBody(algo, m, length.rounds, run.step);
  // The label goes into a docstring: no quotes or backslashes that could end it or start an escape.
  const name = oneLine(label).replace(/[\\"]/g, "'");
  // DPO, KTO and ORPO learn from labels the lab makes from the gold scores, whatever their reward menu says
  // (it only scores their charted samples): the script labels its pairs with the gold score too. KTO with
  // labels = threshold labels by the run's own reward: the script's score() is that reward.
  const reward = labelsFromGold(algo, run.spec.config) ? "gold" : rewardOf(run.spec.config);
  const changes = untrainedChanges(algo, run.spec.config, run.untrained);
  // A label or value goes into the docstring: one line, no quotes or backslashes.
  const pending = changes.length
    ? `\nChanged after step ${run.step}, so none of the lab's steps trained with it yet: ${oneLine(untrainedText(changes)).replace(/[\\"]/g, "'")}.
This script uses the new values.\n`
    : "";
  const rm =
    reward === "gold"
      ? ""
      : `\nIt optimised a learned reward model (reward "${reward}"), loaded below with onnxruntime: put its .onnx file and
tokenizer.json next to this script (RM_PATH, TOKENIZER_PATH) and pip install onnxruntime numpy too.\n`;
  return `#!/usr/bin/env python3
${midRunComment(run.markers)}"""${name}: ${title} on ${task === null ? "an unknown task (its run file did not say)" : `the ${task} task`}, exported from RLHF Playground (${now.toISOString().slice(0, 10)}).

In the lab this run trained a tiny GPT in the browser (start model: ${startModelText(where)}, seed ${where.seed ?? "unknown"},
${run.step} steps). This script runs the same algorithm with the same settings (mapped to TRL's names) and the
same reward with TRL on a real model. Replace the placeholders (${placeholders(where)}), then:

${pipText(m.target.trainer)}

and run it:

    python ${file}
${importedNote(where)}${rm}${pending}${note}${length.note ? `\n${length.note}\n` : ""}"""
${scriptImports(m)}

MODEL_NAME = "${PLACEHOLDER_MODEL}"  # PLACEHOLDER: your SFT model (the lab's models are tiny char-level GPTs)
SEED = ${where.seed ?? "0  # PLACEHOLDER: unknown (the run file this run came from did not say its seed)"}
OUTPUT_DIR = "${slug(label)}-trl"

${runRewardPy(task, reward)}

${promptsPy(task)}
${body}`;
}
