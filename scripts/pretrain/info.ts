/**
 * The string metadata `npm run pretrain` writes into sft.safetensors (the safetensors `__metadata__`, beside
 * `format` and the config and tokenizer that src/model/checkpoint.ts adds). Its keys and their order are part of
 * the file's bytes: a change here changes the sha256 of every checkpoint written after it, weights unchanged
 * (test/models/rebuild_header.test.ts rebuilds the shipped checkpoints' bytes from their manifest entries).
 */

/** What a checkpoint's metadata says of the run that made it. */
export interface PretrainInfo {
  task: string;
  /** The backend as given (`tfjs-wasm` | `wgsl`) in a snapshot; in the final file, `backendInfo` replaces it. */
  backend: string;
  /** The library and threads that trained, e.g. "tfjs-wasm (TF.js 4.22.0, SIMD, 1 thread)"; final file only. */
  backendInfo?: string;
  seed: number;
  /** The schedule's length (`--steps` or the task's default), which a stop at accuracy can cut short. */
  scheduledSteps: number;
  /** Steps trained. */
  steps: number;
  /** Mean loss (nats per token) over the last logged steps; written with 4 decimals. */
  finalLoss: number;
  /** sha256 (hex) of the training lines (scripts/pretrain/data.ts). */
  dataHash: string;
  /** A snapshot of a run still going (`--snapshot-every`). */
  partial?: boolean;
}

/** The metadata, in the order written: task, backend, seed, scheduled_steps, steps, final_loss, data_hash[, partial]. */
export function checkpointInfo(i: PretrainInfo): Record<string, string> {
  return {
    task: i.task,
    backend: i.backendInfo ?? i.backend,
    seed: String(i.seed),
    scheduled_steps: String(i.scheduledSteps),
    steps: String(i.steps),
    final_loss: i.finalLoss.toFixed(4),
    data_hash: i.dataHash,
    ...(i.partial ? { partial: "true" } : {}),
  };
}
