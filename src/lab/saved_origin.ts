/**
 * What a saved run was trained from, in its checkpoint's metadata, and the checks on loading it back (a reload's
 * resume, an Import): the start model (its name and the SHA-256 of its weights: the run's reference π_ref), and
 * for a run that optimised the shipped proxy reward model, that file's SHA-256. A newer version of the lab can
 * ship other files under the same names (the sentiment reward model was retrained on 2026-12-03).
 */
import type { Checkpoint } from "../model/checkpoint";
import { weightsDigest } from "../util/digest";
import type { SettingValue } from "./protocol";
import type { StartModel } from "./resources";
import type { RewardModelInfo } from "./reward_sources";
import type { ResumeNote } from "./sched_run";

/** Metadata key: the start model's name ("models/sentiment/sft.safetensors", "nano (random init, seed 0)"). */
export const START_KEY = "start";
/** Metadata key: SHA-256 of the start model's weights (src/util/digest.ts weightsDigest). */
export const START_DIGEST_KEY = "start_sha256";
/** Metadata key: SHA-256 of the proxy reward model's file, for a run that trained on it. */
export const REWARD_DIGEST_KEY = "reward_sha256";

/** The metadata that names what a run trained from (its trained settings' reward says whether the proxy counts). */
export function originInfo(
  start: StartModel,
  trainedReward: SettingValue | undefined,
  proxy: RewardModelInfo | null,
): Record<string, string> {
  return {
    [START_KEY]: start.source,
    [START_DIGEST_KEY]: weightsDigest(start.params),
    ...(trainedReward === "proxy" && proxy && { [REWARD_DIGEST_KEY]: proxy.sha256 }),
  };
}

/**
 * @throws RangeError when the checkpoint was not trained from `start`: another shape; another start model by
 *   name (two can share a shape: the sentiment SFT model is a tiny preset's); the same name over other weights (a
 *   shipped model a newer version of the lab replaced, two Pipeline hand-offs of one size), whose KL would be
 *   measured against another reference. Files without the metadata (other tools, older exports) are taken on
 *   their shape.
 */
export function checkStart(ck: Checkpoint, start: StartModel): void {
  const want = JSON.stringify(start.config);
  if (JSON.stringify(ck.config) !== want)
    throw new RangeError(
      `the saved checkpoint's model ${JSON.stringify(ck.config)} is not the start model ${want}`,
    );
  const from = ck.info[START_KEY];
  if (from !== undefined && from !== start.source)
    throw new RangeError(`it was trained from ${from}, and this lab's runs start from ${start.source}`);
  const digest = ck.info[START_DIGEST_KEY];
  if (digest !== undefined && digest !== weightsDigest(start.params))
    throw new RangeError(
      `it was trained from another version of ${from ?? start.source}: its weights differ from this lab's, so its KL and reward curves would not carry on`,
    );
}

/** A run whose proxy reward model is another file than the one it trained with. */
export interface ProxyReplaced {
  /** The file, e.g. "models/sentiment/rm.onnx". */
  path: string;
  /** The first 8 hex digits of the SHA-256 it trained with, and of the one it scores with now. */
  from: string;
  to: string;
}

/**
 * Whether a run that trained on the proxy reward model and optimises it still comes back on another file: null
 * when it did not train on it, does not optimise it now, or the file is the same (or the checkpoint does not say).
 */
export function proxyReplaced(
  ck: Checkpoint,
  trainedReward: SettingValue | undefined,
  nowReward: SettingValue | undefined,
  proxy: RewardModelInfo,
): ProxyReplaced | null {
  const was = ck.info[REWARD_DIGEST_KEY];
  if (was === undefined || trainedReward !== "proxy" || nowReward !== "proxy" || was === proxy.sha256)
    return null;
  return { path: proxy.name, from: was.slice(0, 8), to: proxy.sha256.slice(0, 8) };
}

/**
 * What the page is told of a run resumed on another proxy file (after its label), and the marker its next step
 * gets, as a setting's change would: "proxy RM ebac38da → e82316e5".
 */
export function proxyReplacedNote(p: ProxyReplaced, step: number): ResumeNote {
  return {
    notice:
      `trained on another version of the proxy reward model ${p.path} (SHA-256 ${p.from}…; this version of the ` +
      `lab ships ${p.to}…): from step ${step + 1} its proxy reward is the new model's, marked on the charts; a new ` +
      "run compares like with like.",
    change: { key: "proxy-rm", label: "proxy RM", from: p.from, to: p.to },
  };
}
