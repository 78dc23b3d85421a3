/**
 * What every run of an experiment shares, loaded once by the training worker: the task, its tokenizer, the
 * start model (the shipped SFT checkpoint or a fresh seeded preset) and the task's preference dataset (DPO
 * offline). Files are fetched from `<baseUrl>models/<task>/…` (Vite `base: "./"`: the page passes its own base,
 * so the same code works in `vite dev`, in the built app and under any sub-path). CPU only: no GPU here.
 */
import { loadCheckpoint } from "../model/checkpoint";
import { type GPTConfig, PRESETS, type PresetName, preset } from "../model/config";
import { initParams, paramLayout } from "../model/params";
import { loadTask, type Task } from "../tasks";
import { loadTokenizer, type Tokenizer } from "../tokenizer/tokenizer";
import { errorMessage as message } from "../util/errors";
import { Rng } from "../util/rng";
import { preferenceSource, type SeededPreferences } from "./preferences";
import type { ExperimentSpec } from "./protocol";
import { fetchShipped, shippedPaths } from "./shipped_fetch";
import { progressFetch, type StartStage } from "./start_progress";

/** The start model: flat parameters in paramLayout(config) order. */
export interface StartModel {
  config: GPTConfig;
  params: Float32Array;
  /** Where it came from, e.g. "models/sentiment/sft.safetensors" or "tiny (random init, seed 0)". */
  source: string;
  /** Tokenizer reference written into exported checkpoints. */
  tokenizerRef: string;
}

export interface LabResources {
  task: Task;
  tokenizer: Tokenizer;
  start: StartModel;
  /**
   * The task's preference dataset (offline DPO), or null when none is shipped (DPO then trains online). Served in
   * the experiment seed's order; a run takes its own seed's order (withSeed: LabRuns.create), never this one as is.
   */
  prefs: SeededPreferences | null;
  /** What the user should be told (fallbacks taken). */
  notices: string[];
  /** The paths models/manifest.json lists ("models/sentiment/rm.onnx"); null or absent: no manifest (the CLI). */
  shipped?: ReadonlyMap<string, number | null> | null;
}

/** A start-up failure with the file or step named (shown on the page as is). */
export class LabLoadError extends Error {
  override readonly name = "LabLoadError";
}

/** The preset a missing shipped checkpoint falls back to. */
export const FALLBACK_PRESET: PresetName = "tiny";

/** A fresh seeded init of a preset with the tokenizer's vocabulary (same seed → same weights). */
export function presetStart(
  name: PresetName,
  tok: Tokenizer,
  seed: number,
  tokenizerRef: string,
): StartModel {
  const config = preset(name, { vocabSize: tok.vocabSize });
  const rng = new Rng(seed);
  return {
    config,
    params: initParams(paramLayout(config), () => rng.normal()),
    source: `${name} (random init, seed ${seed})`,
    tokenizerRef,
  };
}

/**
 * Load everything the experiment's runs share. `onStage`, when given, hears each download's bytes and the
 * task's loading (./start_progress.ts), for the page's loading line.
 * @throws LabLoadError naming the file or setting at fault.
 */
export async function loadResources(
  spec: ExperimentSpec,
  baseUrl: string,
  fetchWith: typeof fetch = fetch,
  onStage?: (s: StartStage) => void,
): Promise<LabResources> {
  // The manifest's sizes: a download's total where the server compresses it (no usable Content-Length).
  let sizes: ReadonlyMap<string, number | null> | null = null;
  const fetchFn = onStage
    ? progressFetch(fetchWith, onStage, undefined, (path) => sizes?.get(path) ?? null)
    : fetchWith;
  const notices: string[] = [];
  const dir = `models/${spec.task}/`;
  const url = (file: string) => new URL(dir + file, baseUrl);
  // The manifest lists every shipped file: with it, absent files are not even asked for (no 404s), and a
  // listed file that does not come back is an error to retry, not a missing file (./shipped_fetch.ts).
  const shipped = await shippedPaths(baseUrl, fetchFn).catch((e) => {
    throw new LabLoadError(message(e));
  });
  sizes = shipped;
  const optional = (file: string) =>
    fetchShipped(url(file), fetchFn, shipped ? shipped.has(dir + file) : null).catch((e) => {
      throw new LabLoadError(message(e));
    });
  let task: Task;
  try {
    onStage?.({ stage: "task" });
    task = await loadTask(spec.task);
  } catch (e) {
    throw new LabLoadError(`task "${spec.task}" could not be loaded: ${message(e)}`);
  }
  let tokenizer: Tokenizer;
  try {
    tokenizer = await loadTokenizer(new URL(task.tokenizerPath, baseUrl), fetchFn);
  } catch (e) {
    throw new LabLoadError(`the ${task.id} tokenizer could not be loaded: ${message(e)}`);
  }
  const tokenizerRef = task.tokenizerPath;

  let start: StartModel;
  if (spec.model === "sft") {
    const res = await optional("sft.safetensors");
    if (!res) {
      start = presetStart(FALLBACK_PRESET, tokenizer, spec.seed, tokenizerRef);
      notices.push(
        `The shipped model ${dir}sft.safetensors is missing, so the runs start from a fresh ${FALLBACK_PRESET} model (random init): expect gibberish until it learns.`,
      );
    } else {
      try {
        const ck = loadCheckpoint(new Uint8Array(await res.arrayBuffer()));
        if (ck.config.vocabSize !== tokenizer.vocabSize)
          throw new Error(`vocabulary ${ck.config.vocabSize} ≠ the tokenizer's ${tokenizer.vocabSize}`);
        start = { config: ck.config, params: ck.params, source: `${dir}sft.safetensors`, tokenizerRef };
      } catch (e) {
        throw new LabLoadError(`${dir}sft.safetensors is not a usable checkpoint: ${message(e)}`);
      }
    }
  } else if (Object.hasOwn(PRESETS, spec.model)) {
    start = presetStart(spec.model, tokenizer, spec.seed, tokenizerRef);
  } else {
    throw new LabLoadError(`unknown model "${spec.model}" (sft, ${Object.keys(PRESETS).join(", ")})`);
  }

  let prefs: SeededPreferences | null = null;
  const prefRes = await optional("preferences.jsonl");
  if (prefRes) {
    try {
      prefs = preferenceSource(
        await prefRes.text(),
        tokenizer,
        spec.seed,
        `${dir}preferences.jsonl`,
        task.generation.maxNewTokens,
      );
    } catch (e) {
      throw new LabLoadError(message(e));
    }
  } else if (spec.runs.some((r) => r.algo === "dpo" && r.config.mode === undefined))
    notices.push(
      `No preference dataset at ${dir}preferences.jsonl: DPO trains online (pairs sampled from the policy, labelled by the simulated annotator).`,
    );
  return { task, tokenizer, start, prefs, notices, shipped };
}
