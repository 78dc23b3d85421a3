/**
 * Recent experiments: earlier lab sessions kept in IndexedDB when another experiment replaces them (a lesson,
 * a shared link, the "Change…" dialog), so that opening something new never loses trained runs. Each entry
 * holds a whole {@link SavedSession} — the experiment, every run's curves, markers and newest checkpoint — and
 * the Pipeline's models when it had any; reopening one swaps it with the current session
 * ({@link LabPersistence.swapIn}).
 *
 * Stores (database "rlhf-playground-lab", version 3; see src/lab/persist.ts):
 * - `archive`      keyPath "id" → {@link ArchivedSession}: the session itself (checkpoint bytes included);
 * - `archiveIndex` keyPath "id" → {@link ArchiveEntry}: what the list shows, read without the bytes.
 * At most {@link ARCHIVE_MAX} entries are kept; the oldest goes first.
 */
import type { IDBPDatabase } from "idb";
import type { LabDb, SavedPipeline, SavedSession } from "./persist";
import type { ExperimentSpec } from "./protocol";
import type { AlgoId } from "./registry";

/** Most experiments kept (a tiny-model session with three runs is ~10 MB with its checkpoints). */
export const ARCHIVE_MAX = 6;

/** One kept experiment, as the list shows it. */
export interface ArchiveEntry {
  id: string;
  spec: ExperimentSpec;
  /** Each run's label, algorithm and the step it was saved at (its checkpoint's, else its curves'). */
  runs: { label: string; algo: AlgoId; step: number }[];
  /** The Pipeline's models (trained in the page) are kept with it. */
  pipeline: boolean;
  /** When it was put away (ms since the epoch). */
  savedAt: number;
}

export interface ArchivedSession {
  id: string;
  session: SavedSession;
  pipeline: SavedPipeline | null;
}

/** The step a saved run would resume at (src/lab/restore.ts): its checkpoint's, else its last curve point. */
export function savedStep(run: SavedSession["runs"][number]): number {
  return run.checkpoint?.step ?? run.history.at(-1)?.step ?? 0;
}

/** True when a session holds something worth keeping: a run that trained, or Pipeline models. */
export function hasProgress(session: SavedSession | null, pipeline: SavedPipeline | null): boolean {
  return (session?.runs.some((r) => savedStep(r) > 0) ?? false) || pipeline !== null;
}

/** The kept experiments. Use through {@link LabPersistence.archive}. */
export class ExperimentArchive {
  constructor(private readonly db: IDBPDatabase<LabDb>) {}

  /** Newest first. */
  async list(): Promise<ArchiveEntry[]> {
    const all = await this.db.getAll("archiveIndex");
    return all.sort((a, b) => b.savedAt - a.savedAt);
  }

  /**
   * Keep a session (and its Pipeline); drops the oldest entries beyond {@link ARCHIVE_MAX}.
   * @returns the new entry.
   * @throws what IndexedDB throws (e.g. QuotaExceededError); nothing is half-written (one transaction).
   */
  async keep(session: SavedSession, pipeline: SavedPipeline | null, now = Date.now()): Promise<ArchiveEntry> {
    const id = `${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const entry: ArchiveEntry = {
      id,
      spec: session.spec,
      runs: session.runs.map((r) => ({ label: r.spec.label, algo: r.spec.algo, step: savedStep(r) })),
      pipeline: pipeline !== null,
      savedAt: now,
    };
    const old = (await this.list()).slice(ARCHIVE_MAX - 1);
    const tx = this.db.transaction(["archive", "archiveIndex"], "readwrite");
    await Promise.all([
      tx.objectStore("archive").put({ id, session, pipeline }),
      tx.objectStore("archiveIndex").put(entry),
      ...old.flatMap((o) => [
        tx.objectStore("archive").delete(o.id),
        tx.objectStore("archiveIndex").delete(o.id),
      ]),
      tx.done,
    ]);
    return entry;
  }

  /** One kept session, whole; undefined when there is none under `id`. */
  async get(id: string): Promise<ArchivedSession | undefined> {
    return this.db.get("archive", id);
  }

  async remove(id: string): Promise<void> {
    const tx = this.db.transaction(["archive", "archiveIndex"], "readwrite");
    await Promise.all([
      tx.objectStore("archive").delete(id),
      tx.objectStore("archiveIndex").delete(id),
      tx.done,
    ]);
  }
}
