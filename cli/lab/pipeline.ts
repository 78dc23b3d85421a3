/**
 * `npm run lab -- pipeline --task <sentiment|arithmetic> [--recipe quick|shipped] [--set key=value]... [--seed S]
 *   [--out result.json]`: the page's Pipeline (src/lab/pipeline/, the same code its worker runs) headless: stage 1
 * (SFT of a fresh model), stage 2 (reward model on the pairs the page uses, models/<task>/<RM_PAIRS_FILE>), then
 * the stage-1 model's evaluation on held-out prompts (the task's metrics at τ = 1). Settings: a recipe
 * (src/lab/pipeline/recipes.ts; default quick), then `--set` on the Pipeline's field table. Prints a line per
 * report and the result as JSON (also written to --out): what a GPU session runs to check a recipe's numbers.
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseFieldValue } from "../../src/algorithms/fields";
import { acquireGpu } from "../../src/gpu/device";
import { evaluateWeights } from "../../src/lab/evaluate";
import { PIPELINE_FIELDS, pipelineSettings } from "../../src/lab/pipeline/fields";
import { RM_PAIRS_FILE } from "../../src/lab/pipeline/pairs";
import { LabPipeline } from "../../src/lab/pipeline/pipeline";
import { type PipelineRecipeId, pipelineRecipes } from "../../src/lab/pipeline/recipes";
import { MAX_SEED } from "../../src/lab/settings";
import { GptWeights } from "../../src/model/weights";
import { wholeNumber, writableFile } from "../args";
import { openTask } from "./support";

/** The pipeline command's single-valued options (`--set` repeats). */
export const PIPELINE_OPTIONS = ["task", "recipe", "seed", "out"] as const;

export const PIPELINE_USAGE =
  "usage: lab pipeline --task <sentiment|arithmetic> [--recipe quick|shipped] [--set key=value]... [--seed S] [--out result.json]";

/** `key=value` on the Pipeline's field table (numbers for its int/number fields). @throws RangeError. */
function pipelineSetting(kv: string): [string, string | number] {
  const i = kv.indexOf("=");
  const key = kv.slice(0, i);
  const f = PIPELINE_FIELDS.find((x) => x.key === key);
  if (i < 1 || !f)
    throw new RangeError(
      `--set ${kv}: not a Pipeline setting (${PIPELINE_FIELDS.map((x) => x.key).join(", ")})`,
    );
  // The Pipeline's table has numbers and options only (no switches).
  return [key, parseFieldValue("pipeline", f, kv.slice(i + 1)) as string | number];
}

/** The command, its options (`--key value`) and `--set` values parsed by cli/lab.ts. */
export async function pipelineCommand(
  o: Record<string, string | undefined>,
  sets: readonly string[],
): Promise<undefined> {
  if (!o.task) throw new RangeError(`--task is required\n${PIPELINE_USAGE}`);
  const { task, tokenizer } = await openTask(o.task);
  const recipeId = (o.recipe ?? "quick") as PipelineRecipeId;
  const recipe = pipelineRecipes(task.id).find((r) => r.id === recipeId);
  if (!recipe) throw new RangeError(`--recipe ${o.recipe}: quick or shipped`);
  // Checked by the field table (ranges, options): a bad --set throws naming the field.
  const settings = pipelineSettings({ ...recipe.settings, ...Object.fromEntries(sets.map(pipelineSetting)) });
  const seed = wholeNumber("seed", o.seed, 0, 0, MAX_SEED); // as a link takes it;
  // Checked now: the result is written after every stage has trained.
  if (o.out) writableFile("out", o.out);
  const pairsPath = `public/models/${task.id}/${RM_PAIRS_FILE[task.id]}`;
  const ctx = await acquireGpu();
  // Progress to stderr: stdout is the result's JSON alone (`lab pipeline … > result.json`).
  console.error(
    `pipeline ${task.id} on ${ctx.adapter.name}: ${recipe.id} ${JSON.stringify(settings)}; pairs ${pairsPath}`,
  );
  const pipe = new LabPipeline(ctx, {
    task,
    tokenizer,
    seed,
    preferences: () => readFile(pairsPath, "utf8"),
  });
  const sft = await pipe.sft(settings, (p) => {
    if (p.sample)
      console.error(
        `sft ${p.step}/${p.steps} loss ${p.loss.toFixed(4)} sample "${p.sample.prompt}${p.sample.completion}"`,
      );
  });
  const rm = await pipe.rmStage(settings, (p) => {
    if (p.eval)
      console.error(
        `rm ${p.step}/${p.steps} loss ${p.loss.toFixed(4)} held-out labels ${p.eval.labelAccuracy.toFixed(3)} gold ${p.eval.goldAccuracy.toFixed(3)}`,
      );
  });
  const { start } = await pipe.handOff(`models/${task.id}/tokenizer.json`);
  const w = new GptWeights(ctx, start.config, start.params);
  const evaluation = await evaluateWeights(ctx, task, tokenizer, w, {
    prompts: 256,
    samples: 1,
    temperature: 1,
    seed,
  });
  w.destroy();
  pipe.destroy();
  const result = {
    task: task.id,
    adapter: ctx.adapter.name,
    recipe: recipe.id,
    seed,
    settings,
    pairs: pairsPath,
    sft: { ...sft, evaluation },
    rm,
  };
  console.log(JSON.stringify(result, null, 2));
  if (o.out) await writeFile(o.out, `${JSON.stringify(result, null, 2)}\n`);
  ctx.destroy();
  await ctx.lost;
}
