/**
 * The saved session's stores (meta, runs, history, checkpoints, pipeline) and the archive's, read and written
 * inside a transaction the caller opened, so that several steps — keep the session, drop a kept one, write
 * another — commit or fail together (src/lab/persist.ts, src/lab/archive.ts). Only IndexedDB requests are
 * awaited here: awaiting anything else would let the transaction commit half-way.
 */
import type { IDBPTransaction, StoreNames } from "idb";
import type { ArchiveEntry } from "./archive";
import { currentMetricNames } from "./metric_names";
import type { LabDb, SavedPipeline, SavedRun, SavedRunMeta, SavedSession } from "./persist";

/** A transaction over some of the lab's stores. */
export type LabTx<Mode extends IDBTransactionMode = "readonly"> = IDBPTransaction<
  LabDb,
  ArrayLike<StoreNames<LabDb>>,
  Mode
>;

/** Metric points per history record. */
export const CHUNK = 256;

/** Every history chunk key of one run. */
export const chunksOf = (runId: string) => IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER]);

/** A run's record in the `runs` store; its history goes into `history` chunks (`points` of them are kept). */
export function runRecord(
  run: Pick<SavedRun, "spec" | "status" | "step" | "comparison"> & {
    markers: readonly SavedRun["markers"][number][];
  },
  points: number,
  savedAt = Date.now(),
): SavedRunMeta {
  return {
    id: run.spec.id,
    spec: run.spec,
    status: run.status,
    step: run.step,
    markers: [...run.markers],
    points,
    ...(run.comparison ? { comparison: true } : {}),
    savedAt,
  };
}

/** The saved session (null when none) and the Pipeline; needs meta, runs, history, checkpoints, pipeline. */
export async function readSession(
  tx: LabTx<IDBTransactionMode>,
): Promise<{ session: SavedSession | null; pipeline: SavedPipeline | null }> {
  const pipeline = (await tx.objectStore("pipeline").get("pipeline")) ?? null;
  const meta = await tx.objectStore("meta").get("experiment");
  if (!meta || !("spec" in meta)) return { session: null, pipeline };
  const metas = await tx.objectStore("runs").getAll();
  const runs: SavedRun[] = [];
  for (const m of metas) {
    const chunks = await tx.objectStore("history").getAll(chunksOf(m.id));
    const history = chunks.sort((a, b) => a.chunk - b.chunk).flatMap((c) => c.points);
    const checkpoint = (await tx.objectStore("checkpoints").get(m.id)) ?? null;
    runs.push({
      spec: m.spec,
      status: m.status,
      step: m.step,
      history: currentMetricNames(m.spec.algo, history.slice(0, m.points)),
      markers: m.markers,
      checkpoint,
      ...(m.comparison ? { comparison: true } : {}),
    });
  }
  const order = new Map(meta.spec.runs.map((r, i) => [r.id, i]));
  runs.sort((a, b) => (order.get(a.spec.id) ?? 1e9) - (order.get(b.spec.id) ?? 1e9));
  return { session: { spec: meta.spec, runs }, pipeline };
}

/** Replace the saved session and Pipeline with these (same stores as {@link readSession}, read-write). */
export async function writeSession(
  tx: LabTx<"readwrite">,
  session: SavedSession,
  pipeline: SavedPipeline | null,
): Promise<void> {
  // meta keeps its other records (the writer's claim: persist.ts): only the experiment is replaced.
  const stores = ["runs", "history", "checkpoints", "pipeline"] as const;
  for (const s of stores) await tx.objectStore(s).clear();
  await tx.objectStore("meta").delete("experiment");
  const now = Date.now();
  await tx.objectStore("meta").put({ spec: session.spec, savedAt: now }, "experiment");
  for (const r of session.runs) {
    const id = r.spec.id;
    await tx.objectStore("runs").put(runRecord(r, r.history.length, now));
    for (let c = 0; c * CHUNK < r.history.length; c++)
      await tx
        .objectStore("history")
        .put({ runId: id, chunk: c, points: r.history.slice(c * CHUNK, (c + 1) * CHUNK) });
    if (r.checkpoint) await tx.objectStore("checkpoints").put({ ...r.checkpoint, runId: id });
  }
  if (pipeline) await tx.objectStore("pipeline").put(pipeline, "pipeline");
}

/** The kept experiments, newest first (needs archiveIndex). */
export async function listKept(tx: LabTx<IDBTransactionMode>): Promise<ArchiveEntry[]> {
  const all = await tx.objectStore("archiveIndex").getAll();
  return all.sort((a, b) => b.savedAt - a.savedAt);
}

/** Forget a kept experiment (needs archive and archiveIndex, read-write). */
export async function removeKept(tx: LabTx<"readwrite">, id: string): Promise<void> {
  await tx.objectStore("archive").delete(id);
  await tx.objectStore("archiveIndex").delete(id);
}
