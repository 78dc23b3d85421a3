/**
 * What the Pipeline's GPU tests share: the arithmetic test experiment's resources (its tokenizer read from
 * public/, nothing else served) and a LabPipeline on `ctx` with the shipped preference pairs.
 */
import { readFile } from "node:fs/promises";
import type { GpuContext } from "../../src/gpu/context";
import { testExperiment } from "../../src/lab/defaults";
import { RM_PAIRS_FILE } from "../../src/lab/pipeline/pairs";
import { LabPipeline } from "../../src/lab/pipeline/pipeline";
import { loadResources } from "../../src/lab/resources";

/** Serves public/'s tokenizer.json files; anything else is a 404 (no shipped model: a random start). */
export const serve = (async (input: RequestInfo | URL) => {
  const path = new URL(String(input)).pathname;
  if (path.endsWith("/tokenizer.json")) return new Response(await readFile(`public${path}`), { status: 200 });
  return new Response("not found", { status: 404 });
}) as typeof fetch;

/** The test experiment's resources and a maker of Pipelines on a device (seed 0, the shipped arithmetic pairs). */
export async function pipelineSetup() {
  const res = await loadResources(testExperiment(), "http://lab.test/", serve);
  const prefs = await readFile(`public/models/arithmetic/${RM_PAIRS_FILE.arithmetic}`, "utf8");
  const pipeline = (ctx: GpuContext) =>
    new LabPipeline(ctx, {
      task: res.task,
      tokenizer: res.tokenizer,
      seed: 0,
      preferences: async () => prefs,
    });
  return { res, prefs, pipeline };
}
