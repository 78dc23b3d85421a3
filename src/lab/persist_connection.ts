/**
 * The lab's IndexedDB connection, kept open across what the browser does to it: site data cleared (here, in
 * another tab or in the browser's settings: the connection's `close` event), another page deleting the database,
 * or a newer version of the lab upgrading it (`versionchange`: this connection closes itself so as never to
 * block either). A lost connection is reopened by the next read or write — the database, emptied, is created
 * again, and `generation` counts it, so a writer knows to write everything again — except when a newer version
 * holds the database: this version cannot read it, and says so.
 */
import { type IDBPDatabase, openDB } from "idb";
import type { LabDb } from "./persist";

/** Why the browser took the connection away: site data cleared or the database deleted; a newer lab's upgrade. */
export type LostReason = "cleared" | "newer";

/** The database's version this lab reads and writes (3: `archive`, `archiveIndex`; 2: `pipeline`). */
export const DB_VERSION = 3;

/** Thrown by reads and writes once a newer version of the lab holds the database. */
export const NEWER_VERSION_MESSAGE =
  "a newer version of the lab opened in another tab and now keeps this browser's runs, so this tab no longer " +
  "saves; reload it to get the newer version (export runs first to keep the steps since the last “saved”)";

export class LabConnection {
  /** Why the connection was lost (null: open). */
  lost: LostReason | null = null;
  /** How many times it was reopened on an emptied database. */
  generation = 0;
  private reopening: Promise<void> | null = null;
  private readonly lostListeners = new Set<(why: LostReason) => void>();
  private readonly reopenListeners = new Set<() => void>();

  constructor(
    private db: IDBPDatabase<LabDb>,
    /** Opens the database again (none: a lost connection stays lost). */
    private readonly reconnect?: () => Promise<IDBPDatabase<LabDb>>,
  ) {}

  /** The browser closed the connection: tell the listeners (once a newer version holds it, nothing changes). */
  connectionLost(why: LostReason): void {
    if (this.lost === "newer") return;
    this.lost = why;
    for (const l of this.lostListeners) l(why);
  }

  /** Told when the connection is lost; returns the unsubscribe. */
  onLost(listener: (why: LostReason) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Told when a lost connection was reopened (on an emptied database); returns the unsubscribe. */
  onReopen(listener: () => void): () => void {
    this.reopenListeners.add(listener);
    return () => this.reopenListeners.delete(listener);
  }

  /**
   * The open connection; a lost one is reopened first.
   * @throws Error(NEWER_VERSION_MESSAGE) once a newer version of the lab holds the database; what IndexedDB
   *   throws when it cannot be reopened (the connection stays lost: the next call tries again).
   */
  async get(): Promise<IDBPDatabase<LabDb>> {
    if (this.lost === "newer") throw new Error(NEWER_VERSION_MESSAGE);
    if (this.lost && this.reconnect) {
      const reconnect = this.reconnect;
      this.reopening ??= (async () => {
        try {
          this.db = await reconnect();
          this.lost = null;
          this.generation++;
          for (const l of this.reopenListeners) l();
        } catch (e) {
          if ((e as { name?: unknown } | null)?.name !== "VersionError") throw e;
          this.connectionLost("newer"); // another tab upgraded it meanwhile
        } finally {
          this.reopening = null;
        }
      })();
      await this.reopening;
      return this.get();
    }
    return this.db;
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Open (or create) the lab's database. A tab still open on an older version blocks the upgrade: after
 * `blockedMs` this gives up (the lab then runs without storage and says why).
 * @throws when IndexedDB is unavailable (private windows of some browsers, disabled storage), the upgrade stays
 *   blocked, or a newer version of the lab saved there (this one cannot read it): callers go on without
 *   persistence and tell the user.
 */
export async function openLabConnection(name: string, blockedMs: number): Promise<LabConnection> {
  if (typeof indexedDB === "undefined") throw new Error("IndexedDB is not available in this browser");
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onBlocked = () => {};
  const blocked = new Promise<never>((_, reject) => {
    onBlocked = () => {
      timer ??= setTimeout(
        () =>
          reject(
            new Error(
              "another tab holds it open with an older version of the lab: close that tab and reload",
            ),
          ),
        blockedMs,
      );
    };
  });
  let self: LabConnection | null = null;
  const connect = (whenBlocked: () => void) =>
    openDB<LabDb>(name, DB_VERSION, {
      upgrade(d, from) {
        if (from < 1) {
          d.createObjectStore("meta");
          d.createObjectStore("runs", { keyPath: "id" });
          d.createObjectStore("history", { keyPath: ["runId", "chunk"] });
          d.createObjectStore("checkpoints", { keyPath: "runId" });
        }
        if (from < 2) d.createObjectStore("pipeline");
        if (from < 3) {
          d.createObjectStore("archive", { keyPath: "id" });
          d.createObjectStore("archiveIndex", { keyPath: "id" });
        }
      },
      blocked: whenBlocked,
      // Never block another page: a newer lab's upgrade, or a page deleting the database (site data cleared).
      blocking: (_now, next, event) => {
        (event.target as IDBDatabase).close(); // no `close` event follows a close of our own: told here
        self?.connectionLost(next === null ? "cleared" : "newer");
      },
      // The browser closed the connection: site data cleared ("Clear site data", DevTools), storage evicted.
      terminated: () => self?.connectionLost("cleared"),
    });
  const open = connect(() => onBlocked());
  try {
    self = new LabConnection(await Promise.race([open, blocked]), () => connect(() => {}));
    return self;
  } catch (e) {
    // Opened later, once the old tab has gone: not used, so it must not hold the database open.
    open.then(
      (d) => d.close(),
      () => {},
    );
    throw (e as { name?: unknown } | null)?.name === "VersionError"
      ? new Error("a newer version of the lab saved its runs in this browser; reload the page to get it")
      : e;
  } finally {
    clearTimeout(timer);
  }
}
