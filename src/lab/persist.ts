/**
 * The lab's runs in IndexedDB (via `idb`), so they survive a reload: the experiment spec, each run's spec,
 * status, step, markers and metric history, and its latest policy checkpoint (safetensors bytes from the
 * worker's exportCheckpoint). One open session per browser profile and origin (two open tabs: the last write wins),
 * and the earlier sessions other experiments replaced (`archive`).
 *
 * Stores (database "rlhf-playground-lab", version 3):
 * - `meta`        key "experiment" → the ExperimentSpec; key "writer" → the connection (tab) that saves now
 *                 ({@link LabPersistence.claim}: another tab's late writes are refused);
 * - `runs`        keyPath "id"     → {@link SavedRunMeta} (spec, status, step, markers, point count);
 * - `history`     keyPath [runId, chunk] → {@link HistoryChunk}: the metric points in chunks of
 *                 {@link CHUNK} points, so a save rewrites only the last, growing chunk (not the whole history);
 * - `checkpoints` keyPath "runId"  → {@link SavedCheckpoint}: the newest checkpoint and the counters it was
 *                 taken at;
 * - `pipeline`    key "pipeline"   → {@link SavedPipeline}: the Pipeline view's models and what its view showed
 *                 (version 2);
 * - `archive`, `archiveIndex` (version 3): earlier sessions kept when another experiment replaced them
 *                 (src/lab/archive.ts, {@link LabPersistence.archive}).
 * How often the lab saves is the autosaver's business (src/lab/autosave.ts); this module only reads and writes.
 */

import type { DBSchema, IDBPDatabase, StoreNames } from "idb";
import { type ArchivedSession, type ArchiveEntry, ExperimentArchive } from "./archive";
import { labDbName } from "./db_name";
import { SETTINGS_REVISION } from "./default_changes";
import type { RunOrigin } from "./export/origin";
import { type LabConnection, type LostReason, openLabConnection } from "./persist_connection";
import { NotWriterError, WRITER_KEY, type WriterRecord } from "./persist_writer";

export { DB_VERSION, type LostReason } from "./persist_connection";

import type {
  ExperimentSpec,
  Marker,
  MetricPoint,
  PipelineModels,
  RunCounters,
  RunSpec,
  RunStatus,
  SettingValue,
} from "./protocol";
import {
  CHUNK,
  chunksOf,
  clearSession,
  isExperimentRecord,
  type LabTx,
  readSession,
  runRecord,
  writeSession,
} from "./session_store";

export { DB_NAME } from "./db_name";
export { NotWriterError, WRITER_KEY, type WriterRecord } from "./persist_writer";
export { CHUNK } from "./session_store";

/** The saved session's stores (src/lab/session_store.ts reads and writes them together). */
const SESSION_STORES = ["meta", "runs", "history", "checkpoints", "pipeline"] as const;

export interface SavedRunMeta {
  id: string;
  spec: RunSpec;
  status: RunStatus;
  step: number;
  markers: Marker[];
  /** Metric points saved in `history` (chunks 0 … ceil(points / CHUNK) − 1). */
  points: number;
  /** Imported for comparison without weights (absent: trained here); `origin`: its file's (./export/origin.ts). */
  comparison?: boolean;
  origin?: RunOrigin;
  /**
   * Settings changed after the run's last step, which no step trained with yet: key → the value its steps
   * trained with (null: the default); see src/ui/lab_store.ts RunState.untrained. Absent when none.
   */
  untrained?: Record<string, SettingValue | null>;
  savedAt: number;
}

export interface HistoryChunk {
  runId: string;
  chunk: number;
  points: MetricPoint[];
}

export interface SavedCheckpoint extends RunCounters {
  runId: string;
  /** safetensors bytes (src/model/checkpoint.ts). */
  bytes: Uint8Array;
  savedAt: number;
}

/** One run as it comes back from IndexedDB. */
export interface SavedRun {
  spec: RunSpec;
  status: RunStatus;
  step: number;
  history: MetricPoint[];
  markers: Marker[];
  checkpoint: SavedCheckpoint | null;
  /** Imported for comparison without weights, and where its file came from. */
  comparison?: boolean;
  origin?: RunOrigin;
  untrained?: Record<string, SettingValue | null>;
}

export interface SavedSession {
  spec: ExperimentSpec;
  /** The settings revision it was saved at (./default_changes.ts); absent: saved before revisions were kept. */
  revision?: number;
  runs: SavedRun[];
  /** Ids of saved runs whose records could not be read: they start over (session_store.ts readSession). */
  unreadable?: string[];
  /** Ids of runs imported for comparison whose records could not be read: left out (no weights to start over). */
  leftOut?: string[];
  /** The experiment's run-list entries that are no run ("run 2 of the experiment (null)"): left out. */
  notRuns?: string[];
}

/** The Pipeline view, saved: its models and the view's own state (curves, settings; opaque here). */
export interface SavedPipeline<View = unknown> {
  models: PipelineModels;
  view: View;
  savedAt: number;
}

export interface LabDb extends DBSchema {
  pipeline: { key: string; value: SavedPipeline };
  archive: { key: string; value: ArchivedSession };
  archiveIndex: { key: string; value: ArchiveEntry };
  meta: { key: string; value: { spec: ExperimentSpec; savedAt: number; d?: number } | WriterRecord };
  runs: { key: string; value: SavedRunMeta };
  history: { key: [string, number]; value: HistoryChunk };
  checkpoints: { key: string; value: SavedCheckpoint };
}

type WriteTx = LabTx<"readwrite">;

/** What a run save needs (the lab store's RunState has all of it). */
export interface RunSnapshot {
  spec: RunSpec;
  status: RunStatus;
  step: number;
  history: readonly MetricPoint[];
  markers: readonly Marker[];
  /** Imported for comparison without weights: the worker has no checkpoint of it to export. */
  comparison?: boolean;
  origin?: RunOrigin;
  /** Settings changed since its last step (SavedRunMeta.untrained). */
  untrained?: Record<string, SettingValue | null>;
}

/** Reads and writes the lab session. Open with {@link openLabPersistence}. */
export class LabPersistence {
  /** Earlier experiments, kept when another one replaced them. */
  readonly archive: ExperimentArchive;
  /** This connection's claim on the session (null: none made, its writes are not checked). */
  private writer: string | null = null;
  /** The claim is being written, or its write failed (storage full): the next write carries it. */
  private pending = false;
  /** The writer the claim replaces (read before writing it): a pending claim may still overtake only that one. */
  private overtakes: string | null = null;
  private claimed: Promise<void> = Promise.resolve();
  /** This connection's writes since its claim ({@link WriterRecord.wrote}). */
  private wrote = 0;

  constructor(
    /** The database, reopened when the browser takes it away (./persist_connection.ts). */
    readonly connection: LabConnection,
  ) {
    this.archive = new ExperimentArchive(() => this.conn());
    // Reopened on an emptied database: the claim went with the data, so the next write writes it again.
    connection.onReopen(() => {
      if (this.writer === null) return;
      this.pending = true;
      this.overtakes = null;
    });
  }

  /** Why the browser took the database away (null: open); see LabConnection. */
  get lost(): LostReason | null {
    return this.connection.lost;
  }

  /** How many times the database was reopened emptied (a writer then writes everything again). */
  get generation(): number {
    return this.connection.generation;
  }

  /** Told when the browser takes the database away; returns the unsubscribe. */
  onLost(listener: (why: LostReason) => void): () => void {
    return this.connection.onLost(listener);
  }

  /**
   * Resolves once the database is open (a lost one reopened).
   * @throws once a newer version of the lab holds it; what IndexedDB throws when it cannot be reopened.
   */
  async connected(): Promise<void> {
    await this.conn();
  }

  private conn(): Promise<IDBPDatabase<LabDb>> {
    return this.connection.get();
  }

  /**
   * Make this connection the one that saves (`writer`: a tab's id). From then on the session's writes of any
   * connection that claimed before are refused with {@link NotWriterError}, even ones already queued when the
   * claim lands (a tab that just lost saving to another: its last checkpoint must not land in the other's
   * session). This connection's own writes wait for the claim. When the claim cannot be written (storage full),
   * the next write of this connection writes it in the same transaction, unless a newer tab claimed meanwhile.
   * A connection that never claims is not checked. Never rejects.
   */
  claim(writer: string): Promise<void> {
    this.writer = writer;
    this.pending = true;
    this.claimed = (async () => {
      const tx = (await this.conn()).transaction("meta", "readwrite");
      const prev = await tx.store.get(WRITER_KEY);
      this.overtakes = prev && "writer" in prev ? prev.writer : null;
      await tx.store.put({ writer, savedAt: Date.now() } satisfies WriterRecord, WRITER_KEY);
      await tx.done;
      if (this.writer === writer) this.pending = false;
    })().catch(() => {});
    return this.claimed;
  }

  /**
   * Run `write` in one read-write transaction over `stores` and `meta`, after this connection's claim; refused
   * (aborted, nothing written) when another connection claimed the session since. A claim that could not be
   * written yet is written first, in the same transaction.
   * @throws NotWriterError then; what IndexedDB throws.
   */
  private async fenced(stores: StoreNames<LabDb>[], write: (tx: WriteTx) => Promise<unknown>): Promise<void> {
    await this.claimed;
    const tx = (await this.conn()).transaction(
      [...new Set([...stores, "meta" as const])],
      "readwrite",
    ) as unknown as WriteTx;
    const writer = this.writer;
    let claiming = false;
    if (writer !== null) {
      const w = await tx.objectStore("meta").get(WRITER_KEY);
      const now = w && "writer" in w ? w.writer : null;
      if (now !== writer) {
        if (!this.pending || (now !== null && now !== this.overtakes)) {
          tx.abort();
          await tx.done.catch(() => {});
          throw new NotWriterError();
        }
        claiming = true;
      }
      // In the same transaction as the write (before it: nothing but its requests may follow a write's awaits).
      await tx
        .objectStore("meta")
        .put({ writer, savedAt: Date.now(), wrote: ++this.wrote } satisfies WriterRecord, WRITER_KEY);
    }
    await write(tx);
    await tx.done;
    if (claiming && this.writer === writer) this.pending = false;
  }

  async saveExperiment(spec: ExperimentSpec): Promise<void> {
    await this.fenced(["meta"], (tx) =>
      tx.objectStore("meta").put({ spec, savedAt: Date.now(), d: SETTINGS_REVISION }, "experiment"),
    );
  }

  /**
   * Save a run. `savedPoints` is how many of its points are already stored unchanged (0 rewrites the whole
   * history, e.g. after a reset); only the chunks from the one holding point `savedPoints` on are written, and
   * chunks past the end of a shorter history are deleted.
   */
  async saveRun(run: RunSnapshot, savedPoints = 0): Promise<void> {
    const id = run.spec.id;
    const n = run.history.length;
    await this.fenced(["runs", "history"], async (tx) => {
      const from = Math.floor(Math.min(savedPoints, n) / CHUNK);
      const history = tx.objectStore("history");
      await history.delete(IDBKeyRange.bound([id, from], [id, Number.MAX_SAFE_INTEGER]));
      for (let c = from; c * CHUNK < n; c++)
        await history.put({ runId: id, chunk: c, points: run.history.slice(c * CHUNK, (c + 1) * CHUNK) });
      await tx.objectStore("runs").put(runRecord(run, n));
    });
  }

  async saveCheckpoint(runId: string, bytes: Uint8Array, at: RunCounters): Promise<void> {
    await this.fenced(["checkpoints"], (tx) =>
      tx.objectStore("checkpoints").put({ runId, bytes, ...at, savedAt: Date.now() }),
    );
  }

  async deleteCheckpoint(runId: string): Promise<void> {
    await this.fenced(["checkpoints"], (tx) => tx.objectStore("checkpoints").delete(runId));
  }

  /** Forget a run: its meta, history and checkpoint. */
  async deleteRun(runId: string): Promise<void> {
    await this.fenced(["runs", "history", "checkpoints"], (tx) =>
      Promise.all([
        tx.objectStore("runs").delete(runId),
        tx.objectStore("history").delete(chunksOf(runId)),
        tx.objectStore("checkpoints").delete(runId),
      ]),
    );
  }

  /**
   * Which connection wrote the session last and how many writes it had made ("" when none claimed it): a cheap
   * mark that changes with every write of a tab that saves.
   */
  async lastWrite(): Promise<string> {
    const w = await (await this.conn()).get("meta", WRITER_KEY);
    return w && "writer" in w ? `${w.writer}#${w.wrote ?? 0}` : "";
  }

  /** Ids of the saved runs. */
  async runIds(): Promise<string[]> {
    return (await this.conn()).getAllKeys("runs");
  }

  /** The saved session, or null when nothing was saved. Runs come in the experiment's order. */
  async load(): Promise<SavedSession | null> {
    const tx = (await this.conn()).transaction(SESSION_STORES, "readonly") as unknown as LabTx;
    const { session } = await readSession(tx);
    await tx.done;
    return session;
  }

  /** Save the Pipeline (null forgets it). */
  async savePipeline(p: Omit<SavedPipeline, "savedAt"> | null): Promise<void> {
    await this.fenced(["pipeline"], (tx) =>
      p
        ? tx.objectStore("pipeline").put({ ...p, savedAt: Date.now() }, "pipeline")
        : tx.objectStore("pipeline").delete("pipeline"),
    );
  }

  async loadPipeline(): Promise<SavedPipeline | null> {
    return (await (await this.conn()).get("pipeline", "pipeline")) ?? null;
  }

  /**
   * Make `session` (and `pipeline`) the saved session, replacing whatever was saved: its experiment, every
   * run's curves, markers and checkpoint. One transaction: on failure the old session is still there.
   */
  async replaceSession(session: SavedSession, pipeline: SavedPipeline | null): Promise<void> {
    await this.fenced([...SESSION_STORES], (tx) => writeSession(tx, session, pipeline));
  }

  /**
   * Delete the saved session — experiment, runs, curves, checkpoints, Pipeline — only while its experiment
   * record is still one this version cannot read, checked in the same transaction (another tab may have
   * discarded it and saved its own session since). Kept experiments and the writer's claim stay.
   * Resolves whether it deleted; false when the record reads now, or there is none.
   */
  async discardUnreadable(): Promise<boolean> {
    const tx = (await this.conn()).transaction(SESSION_STORES, "readwrite") as unknown as WriteTx;
    const meta = await tx.objectStore("meta").get("experiment");
    if (meta === undefined || isExperimentRecord(meta)) {
      tx.abort();
      await tx.done.catch(() => {});
      return false;
    }
    await clearSession(tx);
    await tx.done;
    return true;
  }

  /** Delete everything saved. */
  async clear(): Promise<void> {
    const tx = (await this.conn()).transaction(
      ["meta", "runs", "history", "checkpoints", "pipeline"],
      "readwrite",
    );
    await Promise.all([
      tx.objectStore("pipeline").clear(),
      tx.objectStore("meta").clear(),
      tx.objectStore("runs").clear(),
      tx.objectStore("history").clear(),
      tx.objectStore("checkpoints").clear(),
      tx.done,
    ]);
  }

  close(): void {
    this.connection.close();
  }
}

/**
 * Open (or create) the lab's database (default: this deployment's, ./db_name.ts labDbName; openLabConnection of
 * ./persist_connection.ts: a tab still open on an older version blocks the upgrade for at most `blockedMs`; the
 * connection never blocks another page, and is reopened when the browser takes it away).
 * @throws when IndexedDB is unavailable, the upgrade stays blocked, or a newer version of the lab saved there:
 *   callers go on without persistence and tell the user.
 */
export async function openLabPersistence(name = labDbName(), blockedMs = 3000): Promise<LabPersistence> {
  return new LabPersistence(await openLabConnection(name, blockedMs));
}
