/**
 * The files a user picks for a run import (src/ui/lab/import_run.ts): any file by name and text, a checkpoint
 * whose metadata names its run, and a run file exported from an experiment. Used by
 * test/lab/session_import*.test.ts.
 */
import { runFileJson } from "../../src/lab/export/run_file";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { encodeSafetensors } from "../../src/model/safetensors";
import { points } from "./session_page";

export const file = (name: string, text: string) => ({
  name,
  text: async () => text,
  arrayBuffer: async () => new TextEncoder().encode(text).buffer as ArrayBuffer,
});

/**
 * A checkpoint file whose metadata names its run, as the lab's export writes it (src/lab/runs.ts); `tensors`:
 * names of (1-element) tensors it holds, e.g. "value_model.wte.weight" for PPO's separate value model.
 */
export const weightsOf = (name: string, meta: Record<string, string> = {}, tensors: string[] = []) => {
  const held = tensors.map((t) => ({ name: t, shape: [1], data: new Float32Array(1) }));
  const bytes = encodeSafetensors(held, {
    algo: "ppo",
    run: "PPO",
    steps: "4",
    task: "sentiment",
    seed: "0",
    ...meta,
  });
  return { name, text: async () => "", arrayBuffer: async () => bytes.slice().buffer as ArrayBuffer };
};

export const exported = (spec: ExperimentSpec) =>
  runFileJson(spec, { spec: spec.runs[0], status: "paused", step: 4, history: points(4), markers: [] });
