/**
 * The lab's kernel pick at start-up (issue: "pick by a quick timing at start-up and cache the choice"): the
 * training worker times each matmul variant on a shape of the model it trains (src/kernels/autotune.ts) and
 * keeps the pick in IndexedDB, so the next visit on the same adapter trains with the same kernel without timing.
 *
 * Database "rlhf-playground-kernels" (version 1), store `autotune`: key {@link autotuneKey} → AutotuneResult.
 * Its own database, so the lab's saved runs (src/lab/persist.ts) never need a schema upgrade for it. Where
 * IndexedDB is missing or refuses (Node, private modes), picks are kept for the page only.
 */
import { openDB } from "idb";
import type { GpuContext } from "../gpu/context";
import { type AutotuneResult, type AutotuneStore, autotune, type MatmulShape3 } from "../kernels/autotune";
import type { GPTConfig } from "../model/config";

export const KERNEL_DB_NAME = "rlhf-playground-kernels";
const STORE = "autotune";

/** Rows of the lab's timing problem: a batch's worth of tokens (the shipped lessons train 32 × ~50). */
export const LAB_AUTOTUNE_ROWS = 256;

/**
 * The lab's autotune problem for a model: its QKV projection, C[rows × 3C] = X[rows × C] · W[C × 3C], over
 * {@link LAB_AUTOTUNE_ROWS} token rows (`tiny`, C = 128: 256 × 384 × 128; `nano`, C = 32: 256 × 96 × 32).
 */
export function labAutotuneShape(config: Pick<GPTConfig, "nEmbd">): MatmulShape3 {
  return { M: LAB_AUTOTUNE_ROWS, N: 3 * config.nEmbd, K: config.nEmbd };
}

/** The IndexedDB-backed store, or undefined where there is no IndexedDB. */
export function kernelChoiceStore(): AutotuneStore | undefined {
  if (typeof indexedDB === "undefined") return undefined;
  const db = () =>
    openDB(KERNEL_DB_NAME, 1, {
      upgrade(d) {
        if (!d.objectStoreNames.contains(STORE)) d.createObjectStore(STORE);
      },
    });
  return {
    async get(key) {
      const d = await db();
      try {
        return await d.get(STORE, key);
      } finally {
        d.close();
      }
    },
    async set(key, value) {
      const d = await db();
      try {
        await d.put(STORE, value, key);
      } finally {
        d.close();
      }
    },
  };
}

/** Pick the matmul variant the lab trains `config` with on `ctx` (timed once per adapter and shape, then saved). */
export function pickLabKernels(ctx: GpuContext, config: Pick<GPTConfig, "nEmbd">): Promise<AutotuneResult> {
  return autotune(ctx, labAutotuneShape(config), kernelChoiceStore());
}
