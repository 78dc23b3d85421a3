/**
 * Ready-made settings for the Pipeline view (./fields.ts), one button each:
 * - `quick`: the field table's defaults, a nano model and tens of steps: every stage finishes in seconds to
 *   minutes even on a CPU, but its reward model has not learnt the task (held-out agreement with gold near
 *   chance: the RL stage then chases noise, which is a lesson of its own);
 * - `shipped`: the batch sizes, step counts and learning rates that made the task's shipped tiny SFT model and
 *   proxy reward model (public/models/manifest.json; a test keeps them equal), at the Pipeline's constant
 *   learning rate (the shipped runs warmed up or decayed theirs). On a GPU a minute or so; on a CPU hours.
 * Measured for arithmetic through the TF.js twin of the same trainers (scripts/pretrain, scripts/train-rm: the
 * same model, loss and AdamW, tested equal to the WGSL ones; no warmup, seed 0; docs/reward-models.md): stage 1
 * reaches 46.5 % held-out greedy pass@1 at step 300, stage 2 a held-out gold agreement of 67.3 % (327 pairs).
 */
import type { TaskId } from "../../tasks";
import { type PipelineSettings, pipelineSettings } from "./fields";

export type PipelineRecipeId = "quick" | "shipped";

export interface PipelineRecipe {
  id: PipelineRecipeId;
  /** The button's text. */
  label: string;
  /** The button's tooltip: what it sets and what to expect, per task. */
  doc: string;
  settings: PipelineSettings;
}

const DEFAULTS = pipelineSettings();

/** The shipped models' recipe per task (their manifest entries: steps, batch, lr). */
const SHIPPED: Record<TaskId, Omit<PipelineSettings, "size" | "evalPairs">> = {
  arithmetic: { sftSteps: 300, sftBatch: 64, sftLr: 1e-3, rmSteps: 1500, rmBatch: 32, rmLr: 1e-4 },
  sentiment: { sftSteps: 2400, sftBatch: 16, sftLr: 1e-3, rmSteps: 1200, rmBatch: 16, rmLr: 3e-4 },
};

const SHIPPED_DOC: Record<TaskId, string> = {
  arithmetic:
    "tiny, 300 SFT steps of 64 sums at lr 1e-3, then 1,500 reward-model steps of 32 pairs at lr 1e-4: the settings of the shipped arithmetic models. Expect an SFT model that gets about half the sums right and a reward model that agrees with gold on about two pairs in three (measured with a CPU copy of these trainers: 46 % and 67 %; the shipped proxy: 76 %). About a minute on a GPU; hours on a CPU.",
  sentiment:
    "tiny, 2,400 SFT steps of 16 rows at lr 1e-3, then 1,200 reward-model steps of 16 pairs at lr 3e-4: the settings of the shipped sentiment models (whose SFT rows were 128 tokens, not 64, and whose SFT lr decayed from 2e-3 to 2e-4). Expect a weak reward model: the shipped proxy made this way agrees with gold on 58 % (a lexicon score is hard to learn from 2,710 noisy pairs). A few minutes on a GPU; many hours on a CPU.",
};

/** The recipes for a task, in button order. */
export function pipelineRecipes(task: TaskId): PipelineRecipe[] {
  return [
    {
      id: "quick",
      label: "Quick (nano)",
      doc: "nano, 40 SFT steps and 20 reward-model steps (the defaults): seconds, even on a CPU (arithmetic; sentiment rows are longer). Its reward model has not learnt the task (it agrees with gold about as often as a coin), so RL on it chases noise.",
      settings: DEFAULTS,
    },
    {
      id: "shipped",
      label: "Shipped models' recipe (tiny)",
      doc: SHIPPED_DOC[task],
      settings: { ...DEFAULTS, ...SHIPPED[task], size: "tiny", evalPairs: 256 },
    },
  ];
}

/** The recipe whose settings `s` are, or null (settings changed by hand). */
export function recipeOf(task: TaskId, s: PipelineSettings): PipelineRecipeId | null {
  const same = (a: PipelineSettings) =>
    (Object.keys(a) as (keyof PipelineSettings)[]).every((k) => a[k] === s[k]);
  return pipelineRecipes(task).find((r) => same(r.settings))?.id ?? null;
}
