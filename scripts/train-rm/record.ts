/**
 * Recording a trained reward model as the shipped one (public/models/<task>/rm.safetensors and rm.onnx, with
 * their facts in public/models/manifest.json). `npm run train-rm` writes its facts beside its outputs
 * (FACTS_FILE) and records them itself when it writes into public/models/<task>; a run written elsewhere (a
 * trial, or a GPU machine's) is shipped later with `npm run train-rm -- --task T --ship DIR`, which first checks
 * that the facts describe the files beside them and that the run trained on the shipped pairs from the shipped
 * SFT model (their sha256), so the recorded command (without the run's --data/--init) makes it again.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TaskId } from "../../src/tasks/task";
import type { CodeRevision } from "../code-revision";
import { recordShipped } from "../models-manifest";

/**
 * The pairs each task's reward model trains on (in public/models/<task>/). Arithmetic's RM has its own 10,000
 * pairs: the 1,000 shared ones (which the DPO lesson samples) left it at chance.
 */
export const RM_DATA: Record<TaskId, string> = {
  sentiment: "preferences.jsonl",
  arithmetic: "rm-preferences.jsonl",
};

/** The facts file `npm run train-rm` writes beside rm.safetensors and rm.onnx. */
export const FACTS_FILE = "train-rm.json";

/** What the manifest records of a reward model (train-rm's facts; these fields are checked when shipping). */
export interface RmFacts extends Record<string, unknown> {
  /** The code the training run started at (scripts/code-revision.ts); absent in facts files written before. */
  code_revision?: CodeRevision | null;
  data: string;
  data_sha256: string;
  init: string;
  init_sha256?: string;
  command: string;
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Record public/models/<task>/rm.{safetensors,onnx} in the manifest with `facts`. */
export function recordRewardModel(task: TaskId, facts: RmFacts): void {
  for (const format of ["safetensors", "onnx"])
    recordShipped(`models/${task}/rm.${format}`, "reward-model", task, { ...facts, format });
}

/**
 * Copy `from`/rm.safetensors and rm.onnx into public/models/<task>/ and record them.
 * @returns a line saying what was shipped.
 * @throws Error when `from` lacks a file, or its run did not train on the shipped preference pairs or did not
 *   start from the shipped SFT model.
 */
export function shipRewardModel(task: TaskId, from: string): string {
  const dir = `public/models/${task}`;
  for (const f of [FACTS_FILE, "rm.safetensors", "rm.onnx"])
    if (!existsSync(join(from, f)))
      throw new Error(`${from} has no ${f} (written by npm run train-rm --out)`);
  const {
    rm_sha256: rmSha,
    onnx_sha256: onnxSha,
    input_flags: _inputs,
    ...facts
  } = JSON.parse(readFileSync(join(from, FACTS_FILE), "utf8")) as RmFacts & {
    rm_sha256?: string;
    onnx_sha256?: string;
    input_flags?: string;
  };
  if (rmSha !== sha256(join(from, "rm.safetensors")) || onnxSha !== sha256(join(from, "rm.onnx")))
    throw new Error(`${from}/${FACTS_FILE} does not describe the rm.safetensors and rm.onnx beside it`);
  const data = `${dir}/${RM_DATA[task]}`;
  const init = `${dir}/sft.safetensors`;
  if (facts.data_sha256 !== sha256(data))
    throw new Error(
      `${from} trained on ${facts.data}, not on the shipped pairs ${data} (their sha256 differ)`,
    );
  if (facts.init_sha256 !== sha256(init))
    throw new Error(`${from} started from ${facts.init}, not from the shipped SFT model ${init}`);
  for (const f of ["rm.safetensors", "rm.onnx"]) copyFileSync(join(from, f), `${dir}/${f}`);
  recordRewardModel(task, {
    ...facts,
    // The code of the run that trained it, not of this copy (null: a facts file from before revisions were kept).
    code_revision: facts.code_revision ?? null,
    data: data.slice("public/".length),
    init: init.slice("public/".length),
  });
  return `shipped ${from}/rm.safetensors and rm.onnx as ${dir}/ (${facts.command})`;
}
