/**
 * Changing what every run shares — the task, the start model, the seed — from the page (the top bar's
 * "Change…" dialog). Such a change starts a new experiment: the runs keep their algorithms and settings but
 * restart from the new start model, as if their link had been opened. Plain data, no DOM.
 */
import { PRESETS, type PresetName } from "../model/config";
import type { TaskId } from "../tasks/task";
import { contextOfDescription } from "./pipeline/model_config";
import type { ExperimentSpec, RunSpec } from "./protocol";
import { restartedSpecs } from "./run_labels";
import { configKey } from "./seed_labels";
import { COST_LIMITS, customRewardsToGold, EXPERIMENT_FIELDS, TASK_COSTS } from "./settings";
import { fieldProblem } from "./spec_check";

/**
 * P per task: its longest prompt in tokens, BOS included, over the whole prompt pool (train and held-out, any
 * seed). Known before the task loads, so the dialog can say which start models fit (a test keeps it equal to
 * the loaded tasks').
 */
export const TASK_PROMPT_TOKENS: Readonly<Record<TaskId, number>> = { sentiment: 62, arithmetic: 7 };

/** Context length of each task's shipped SFT model (public/models/manifest.json; a test keeps them equal). */
export const SHIPPED_CONTEXT: Readonly<Record<TaskId, number>> = { sentiment: 128, arithmetic: 16 };

/**
 * Most completion tokens a run samples on `task` from `model`: the start model's context minus the task's
 * longest prompt (src/algorithms/run.ts completionBudget caps `maxNewTokens` there; DPO's offline pairs may
 * have longer prompts, so it can be fewer). The shipped arithmetic model: 16 − 7 = 9.
 */
export function completionRoom(task: TaskId, model: ExperimentSpec["model"]): number {
  const context = model === "sft" ? SHIPPED_CONTEXT[task] : PRESETS[model as PresetName].contextLength;
  return context - TASK_PROMPT_TOKENS[task];
}

/**
 * {@link completionRoom} for what the runs really start from: after a Pipeline hand-off (`handedOff`, its
 * source text) the Pipeline model's context; Infinity when that text names none.
 */
export function startRoom(task: TaskId, model: ExperimentSpec["model"], handedOff?: string | null): number {
  if (!handedOff) return completionRoom(task, model);
  const context = contextOfDescription(handedOff);
  return context === null ? Number.POSITIVE_INFINITY : context - TASK_PROMPT_TOKENS[task];
}

/** Fewest completion tokens a start model must leave after the longest prompt to be offered for a task. */
export const MIN_COMPLETION_ROOM = 4;

/**
 * Why `model` cannot be the start model of `task`, or null when it can. The shipped SFT model always fits its
 * task; a preset fits when its context leaves MIN_COMPLETION_ROOM tokens after the task's longest prompt.
 */
export function startModelProblem(model: ExperimentSpec["model"], task: TaskId): string | null {
  if (model === "sft") return null;
  const context = PRESETS[model as PresetName].contextLength;
  const room = context - TASK_PROMPT_TOKENS[task];
  return room >= MIN_COMPLETION_ROOM
    ? null
    : `${model}'s context (${context} tokens) is too short for this task's prompts (up to ${TASK_PROMPT_TOKENS[task]} tokens)`;
}

/** What the dialog changes. */
export type ExperimentChange = Pick<ExperimentSpec, "task" | "model" | "seed">;

/** The new experiment and, in words, every setting it could not carry over as it was. */
export interface ChangedExperiment {
  spec: ExperimentSpec;
  changes: string[];
}

/** A Safe RLHF run's cost the new task lacks goes back to "length", and d with it when d was the cost's suggestion. */
function costCarried(run: RunSpec, task: TaskId, changes: string[]): RunSpec {
  const cost = run.config.cost;
  if (cost === undefined || cost === "length" || TASK_COSTS[task].includes(String(cost))) return run;
  const { cost: _, costLimit, ...config } = run.config;
  const keepD = costLimit !== undefined && costLimit !== COST_LIMITS[String(cost)];
  changes.push(
    `${run.label}: the ${task} task has no cost “${cost}”, so it uses the completion length${keepD ? "" : ` (limit d = ${COST_LIMITS.length} tokens)`}`,
  );
  return { ...run, config: keepD ? { ...config, costLimit } : config };
}

/**
 * Runs of one configuration (configKey: algorithm and settings) on different seeds before the change that the
 * new experiment seed puts on one (a run on the experiment's seed meets one whose own seed is the new one): they
 * would train the same prompts and samples, one curve twice, and the Across seeds table counts that seed once.
 */
function seedCollisions(runs: readonly RunSpec[], before: number, after: number): string[] {
  const out: string[] = [];
  runs.forEach((a, i) => {
    for (const b of runs.slice(i + 1)) {
      if (configKey(a) !== configKey(b)) continue;
      const now = a.seed ?? after;
      if ((a.seed ?? before) !== (b.seed ?? before) && now === (b.seed ?? after))
        out.push(
          `${a.label} and ${b.label} would both train on seed ${now} with the same settings (the same prompts and samples: one curve twice, and Across seeds counts that seed once); give one another seed or remove it`,
        );
    }
  });
  return out;
}

/**
 * The experiment after the change: the same runs (algorithms, labels, settings) on the new task, start model
 * and seed, restarted from step 0 (labels lose their " (fork @ N)" and " (imported)" marks: run_labels.ts
 * restartedSpecs). What cannot carry over is adjusted and listed in `changes`: a Safe RLHF cost
 * the new task lacks (back to "length"), a reward model made in the page (back to the gold scorer: a new
 * experiment starts without the Pipeline's models or a loaded file), and a guided lesson. A lesson stays a
 * lesson only when its task and start model are kept (its narrative is about them; a new seed is the lesson
 * again on other samples); left, it takes its step limit with it. Null when nothing changes.
 * @throws RangeError when the start model does not fit the task (startModelProblem) or a value is outside its
 *   field (EXPERIMENT_FIELDS: the seed an integer in [0, 2^31 − 1]).
 */
export function changeExperiment(spec: ExperimentSpec, change: ExperimentChange): ChangedExperiment | null {
  if (change.task === spec.task && change.model === spec.model && change.seed === spec.seed) return null;
  for (const f of EXPERIMENT_FIELDS)
    if (f.key in change) {
      const problem = fieldProblem("experiment", f, change[f.key as keyof ExperimentChange]);
      if (problem) throw new RangeError(problem);
    }
  const problem = startModelProblem(change.model, change.task);
  if (problem) throw new RangeError(problem);
  const { task, model, seed } = change;
  const changes: string[] = [];
  const gold = customRewardsToGold(spec);
  if (gold.changed.length)
    changes.push(
      `${gold.changed.join(", ")} optimise${gold.changed.length === 1 ? "s" : ""} a reward model made in this page; the new experiment scores ${gold.changed.length === 1 ? "it" : "them"} with the gold scorer`,
    );
  // Every run starts over from the new start model: a fork or an import is neither any more (run_labels.ts).
  const runs = restartedSpecs(gold.spec.runs.map((r) => costCarried(r, task, changes)));
  // A run with its own training seed (RunSpec.seed) keeps it: only the runs on the experiment's seed move.
  const own = seed === spec.seed ? [] : runs.filter((r) => r.seed !== undefined);
  if (own.length)
    changes.push(
      `${own.map((r) => `${r.label} keeps its own seed ${r.seed}`).join(", ")} (a run's own seed is not the experiment's; the start model is the new experiment's)`,
    );
  changes.push(...seedCollisions(runs, spec.seed, seed));
  const { preset, steps, ...rest } = spec;
  const keepsLesson = preset !== undefined && task === spec.task && model === spec.model;
  if (preset && !keepsLesson)
    changes.push(
      `this leaves the lesson (its narrative is about its own task and start model)${steps ? `, and its stop at step ${steps}` : ""}`,
    );
  // A step limit the user set carries over (a lesson's is the lesson's): said, or the runs stop unexplained.
  if (steps && !preset)
    changes.push(
      `Stop at ${steps} stays set: the new runs pause at step ${steps} (clear it in the top bar to go on)`,
    );
  return {
    spec: {
      ...rest,
      task,
      model,
      seed,
      runs,
      ...(steps && (keepsLesson || !preset) && { steps }),
      ...(keepsLesson && { preset }),
    },
    changes,
  };
}
