/**
 * What the autosaver (./autosave.ts) reads the lab's state through, is started with, and gives back: a tiny
 * getState/subscribe interface keeps it free of React and zustand (src/ui/lab_store.ts fits it as it is).
 */
import type { LabPersistence, RunSnapshot } from "./persist";
import type { ExperimentSpec } from "./protocol";
import type { ReachedStorage } from "./reached";

/** The part of the lab's state that is saved. */
export interface PersistableState {
  spec: ExperimentSpec;
  playing: boolean;
  runs: Record<string, RunSnapshot>;
}

/** Where the state is read, and told when it changes. */
export interface StateSource<S extends PersistableState = PersistableState> {
  getState(): S;
  subscribe(listener: (state: S, prev: S) => void): () => void;
}

/** startAutosave's options (intervals in ms; their defaults in ./autosave.ts's header). */
export interface AutosaveOptions {
  persistence: LabPersistence;
  source: StateSource;
  /** The worker's checkpoint export; without it only specs and histories are saved. */
  exportCheckpoint?: (runId: string) => Promise<Uint8Array>;
  historyEveryMs?: number;
  checkpointEveryMs?: number;
  /**
   * How long a checkpoint save waits, in all, for the points of weights past the page's last point (the worker
   * sends a step's point in its next, throttled update) before leaving them to the next save; default 2000 ms.
   */
  pageWaitMs?: number;
  /** Told once per distinct failure (quota exceeded, storage disabled, …). */
  onError?: (message: string) => void;
  /** Told true when writes start and false when none is left (the page's "saving…" / "saved"). */
  onBusy?: (busy: boolean) => void;
  /**
   * Told the failure's line when a write fails and null when one succeeds again, every time (not once like
   * onError): the page's save indicator then says "not saved" instead of "saved".
   */
  onFailed?: (line: string | null) => void;
  /**
   * Told the lines onError told when a write succeeds again after failing: the page takes them out of its
   * notice (a "storage full" line must not stay beside "saved").
   */
  onRecovered?: (lines: string[]) => void;
  /** Where the steps reached are written when the page is hidden (default: the tab's sessionStorage; reached.ts). */
  reachedStore?: ReachedStorage;
  /** Where `pagehide`, `visibilitychange` and `beforeunload` are listened for (default: window; tests: a stub). */
  page?: Pick<EventTarget, "addEventListener" | "removeEventListener"> & { document?: Document };
}

/** A running autosaver. */
export interface Autosaver {
  /** Save what changed now (specs, statuses, markers, history). */
  flush(): Promise<void>;
  /** Export and save a checkpoint of every run that stepped since its last one. */
  checkpoint(): Promise<void>;
  /** Stop the timers and listeners; resolves once the writes already queued have landed. */
  stop(): Promise<void>;
}
