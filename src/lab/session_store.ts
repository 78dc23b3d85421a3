/**
 * The saved session's stores (meta, runs, history, checkpoints, pipeline) and the archive's, read and written
 * inside a transaction the caller opened, so that several steps — keep the session, drop a kept one, write
 * another — commit or fail together (src/lab/persist.ts, src/lab/archive.ts). Only IndexedDB requests are
 * awaited here: awaiting anything else would let the transaction commit half-way.
 */
import type { IDBPTransaction, StoreNames } from "idb";
import type { ArchiveEntry } from "./archive";
import { migrateRun, revisionOf } from "./default_changes";
import { readOrigin } from "./export/origin";
import { currentMetricNames } from "./metric_names";
import { isRecord, isStep, readMetricPoint } from "./metric_point";
import type { HistoryChunk, LabDb, SavedPipeline, SavedRun, SavedRunMeta, SavedSession } from "./persist";
import type { ExperimentSpec, RunSpec, RunStatus, SettingValue } from "./protocol";
import { checkRun, kindOf } from "./spec_check";

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
  run: Pick<SavedRun, "spec" | "status" | "step" | "comparison" | "origin" | "untrained"> & {
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
    ...(run.comparison && run.origin && { origin: run.origin }),
    ...(run.untrained && Object.keys(run.untrained).length > 0 && { untrained: { ...run.untrained } }),
    savedAt,
  };
}

/**
 * The saved session (null when none) and the Pipeline; needs meta, runs, history, checkpoints, pipeline. Each
 * run is read on its own and checked as a run file's would be (readMetricPoint): points that are not metric
 * points are dropped, and a run whose record cannot be read at all is left out and named in `unreadable`
 * (records of another version, or written by something else), so that one bad record does not cost the rest;
 * so is an entry of the experiment's run list that is no run (null).
 * @throws when the experiment itself (meta) is not one: the caller must then not save over what it could not read.
 */
export async function readSession(
  tx: LabTx<IDBTransactionMode>,
): Promise<{ session: SavedSession | null; pipeline: SavedPipeline | null }> {
  const pipeline = (await tx.objectStore("pipeline").get("pipeline")) ?? null;
  const meta = await tx.objectStore("meta").get("experiment");
  if (!meta || !("spec" in meta)) return { session: null, pipeline };
  if (!isExperimentRecord(meta)) throw new Error("the saved experiment is not one (no run list)");
  const metas: unknown[] = await tx.objectStore("runs").getAll();
  const runs: SavedRun[] = [];
  const unreadable: string[] = [];
  const leftOut: string[] = [];
  const notRuns: string[] = [];
  /** Runs imported for comparison whose records cannot be read: no weights to start over from, so left out. */
  const lost = new Set<string>();
  for (const m of metas) {
    const id = isRecord(m) && typeof m.id === "string" ? m.id : null;
    const run =
      id === null ? null : readRun(m as SavedRunMeta, await tx.objectStore("history").getAll(chunksOf(id)));
    if (!run || id === null) {
      if (id !== null && isRecord(m) && m.comparison) {
        lost.add(id);
        leftOut.push(id);
      } else unreadable.push(id ?? "a run without an id");
      continue;
    }
    const checkpoint = (await tx.objectStore("checkpoints").get(id)) ?? null;
    runs.push({
      ...run,
      checkpoint: checkpoint instanceof Object && checkpoint.bytes instanceof Uint8Array ? checkpoint : null,
    });
  }
  // An entry of the experiment's run list that is no run (null, a number…) is left out and named, as a run record
  // that cannot be read is (the page would fail on it); so is the entry of a comparison run whose record cannot be
  // read (kept, it would train as a new run of the experiment).
  const list: unknown[] = meta.spec.runs;
  const listed = list.filter((r, i): r is Record<string, unknown> => {
    if (!isRecord(r)) notRuns.push(`run ${i + 1} of the experiment (${kindOf(r)})`);
    return isRecord(r) && !(typeof r.id === "string" && lost.has(r.id));
  });
  const order = new Map(listed.map((r, i) => [r.id, i]));
  runs.sort((a, b) => (order.get(a.spec.id) ?? 1e9) - (order.get(b.spec.id) ?? 1e9));
  // Saved at an older settings revision: the runs' settings as they were then (idempotent: a setting written out
  // is left as it is), in the experiment and in each run alike (a restore matches them).
  const revision = revisionOf((meta as { d?: unknown }).d);
  const migrate = (r: unknown) =>
    isRecord(r) && typeof r.algo === "string" && isRecord(r.config)
      ? migrateRun(r as unknown as RunSpec, revision)
      : r;
  const spec = { ...meta.spec, runs: listed.map(migrate) } as unknown as ExperimentSpec;
  return {
    session: {
      spec,
      runs: runs.map((r) => ({ ...r, spec: migrateRun(r.spec, revision) })),
      ...(revision && { revision }),
      ...(unreadable.length && { unreadable }),
      ...(leftOut.length && { leftOut }),
      ...(notRuns.length && { notRuns }),
    },
    pipeline,
  };
}

/** Whether the saved experiment record `meta` is one this version reads (an object with a run list). */
export function isExperimentRecord(
  meta: unknown,
): meta is { spec: Record<string, unknown> & { runs: unknown[] } } {
  return isRecord(meta) && isRecord(meta.spec) && Array.isArray(meta.spec.runs);
}

/** The statuses a run may have (a run imported for comparison is drawn with its saved one). */
const STATUSES: Readonly<Record<RunStatus, true>> = {
  ready: true,
  running: true,
  finishing: true,
  paused: true,
  recovering: true,
  error: true,
};

/**
 * Whether a run imported for comparison can be drawn as saved: its status is one, and its spec is one the check
 * of every other run takes as it is (spec_check.ts checkRun: a known algorithm, settings its fields accept, a
 * usable label). Its card is drawn from them, and nothing else checks them (the worker never gets it).
 */
function drawable(spec: unknown, status: unknown): boolean {
  const issues: string[] = [];
  return (
    typeof status === "string" &&
    Object.hasOwn(STATUSES, status) &&
    checkRun(spec, 0, new Set(), issues) !== null &&
    issues.length === 0
  );
}

/**
 * A run's saved record and history chunks as a run, or null when the record is not one (or is a run imported for
 * comparison that cannot be drawn: {@link drawable}).
 */
function readRun(m: SavedRunMeta, chunks: unknown[]): Omit<SavedRun, "checkpoint"> | null {
  const spec: unknown = m.spec;
  if (
    !isRecord(spec) ||
    typeof spec.algo !== "string" ||
    typeof spec.label !== "string" ||
    !isRecord(spec.config)
  )
    return null;
  if (typeof m.status !== "string" || !isStep(m.step) || !isStep(m.points)) return null;
  if (m.comparison && !drawable(spec, m.status)) return null;
  const dropped = { values: 0 };
  const points = chunks
    .filter((c): c is HistoryChunk => isRecord(c) && typeof c.chunk === "number" && Array.isArray(c.points))
    .sort((a, b) => a.chunk - b.chunk)
    .flatMap((c) => c.points)
    .slice(0, m.points)
    .flatMap((p) => readMetricPoint(p, dropped) ?? []);
  const markers = Array.isArray(m.markers)
    ? m.markers.filter((k) => isRecord(k) && isStep(k.step) && typeof k.label === "string")
    : [];
  // Where a comparison run's file came from (absent in runs saved before 2027-01: its seed is then unknown).
  const origin = m.comparison ? readOrigin(m.origin) : undefined;
  return {
    spec: m.spec,
    status: m.status,
    step: m.step,
    history: currentMetricNames(spec.algo, points),
    markers,
    ...(m.comparison ? { comparison: true } : {}),
    ...(origin && { origin }),
    ...(isUntrained(m.untrained) && { untrained: m.untrained }),
  };
}

/** Whether `x` is a saved RunState.untrained: an object of setting values or null (the default). */
function isUntrained(x: unknown): x is Record<string, SettingValue | null> {
  return (
    isRecord(x) &&
    Object.keys(x).length > 0 &&
    Object.values(x).every((v) => v === null || ["number", "string", "boolean"].includes(typeof v))
  );
}

/**
 * Delete the saved session: its experiment, runs, curves, checkpoints and Pipeline (same stores as
 * {@link readSession}, read-write). meta keeps its other records (the writer's claim: persist.ts).
 */
export async function clearSession(tx: LabTx<"readwrite">): Promise<void> {
  for (const s of ["runs", "history", "checkpoints", "pipeline"] as const) await tx.objectStore(s).clear();
  await tx.objectStore("meta").delete("experiment");
}

/** Replace the saved session and Pipeline with these (same stores as {@link readSession}, read-write). */
export async function writeSession(
  tx: LabTx<"readwrite">,
  session: SavedSession,
  pipeline: SavedPipeline | null,
): Promise<void> {
  await clearSession(tx);
  const now = Date.now();
  // At the revision it was read at (a kept experiment reopened: its runs are read as then).
  await tx
    .objectStore("meta")
    .put(
      { spec: session.spec, savedAt: now, ...(session.revision && { d: session.revision }) },
      "experiment",
    );
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
