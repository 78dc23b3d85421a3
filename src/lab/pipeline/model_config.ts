/** The Pipeline's model shapes: the size preset grown to the task's prompts, and how it is described. */
import { type GPTConfig, PRESETS, preset } from "../../model/config";
import type { Task } from "../../tasks";
import type { Tokenizer } from "../../tokenizer/tokenizer";
import type { PipelineSettings } from "./fields";

/** The preset, its context grown to hold the task's longest prompt plus its completion length (a power of 2). */
export function pipelineConfig(size: PipelineSettings["size"], task: Task, tok: Tokenizer): GPTConfig {
  const prompts = [...task.prompts.train, ...task.prompts.eval];
  const longest = Math.max(...prompts.map((p) => tok.encode(p, { bos: true }).length));
  const need = 2 ** Math.ceil(Math.log2(longest + task.generation.maxNewTokens));
  return preset(size, {
    vocabSize: tok.vocabSize,
    contextLength: Math.max(PRESETS[size].contextLength, need),
  });
}

/** "nano (2 layers, C = 32, context 32)". */
export function describeConfig(size: string, c: GPTConfig): string {
  return `${size} (${c.nLayer} layers, C = ${c.nEmbd}, context ${c.contextLength})`;
}

/** The context length a {@link describeConfig} text names (the Pipeline's hand-off source), or null. */
export function contextOfDescription(text: string): number | null {
  const m = /, context (\d+)\)/.exec(text);
  return m ? Number(m[1]) : null;
}
