/**
 * The lab's reward sources (src/lab/reward_sources.ts) in Node: the shipped proxy RM is read from public/
 * instead of fetched over HTTP, and ONNX files run on onnxruntime-web's WASM EP. So `--set reward=proxy` in
 * the CLI optimises the same model, through the same code, as a run in the page.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RewardSources } from "../../src/lab/reward_sources";
import { loadOnnxRewardModel } from "../../src/rewards/onnx_reward_model";
import type { Task } from "../../src/tasks/task";
import type { Tokenizer } from "../../src/tokenizer/tokenizer";

/** fetch() for file: URLs: the file's bytes, or a 404 when it is missing. */
export async function fileFetch(url: URL | RequestInfo): Promise<Response> {
  const path = fileURLToPath(String(url));
  if (!existsSync(path)) return new Response(null, { status: 404 });
  return new Response(await readFile(path));
}

/** Reward sources whose `models/…` files come from `publicDir` (default: the repository's public/). */
export function nodeRewardSources(task: Task, tokenizer: Tokenizer, publicDir = "public/"): RewardSources {
  return new RewardSources(task, tokenizer, {
    baseUrl: pathToFileURL(publicDir.endsWith("/") ? publicDir : `${publicDir}/`).href,
    fetchFn: fileFetch as typeof fetch,
    loadOnnx: (bytes, vocabSize, padId) => loadOnnxRewardModel(bytes, vocabSize, { padId }),
  });
}
