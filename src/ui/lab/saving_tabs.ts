/**
 * Which tab of the lab saves. The browser keeps one open session (src/lab/persist.ts), so one tab writes it:
 * the lab opened last, or the tab whose "Save here" took it over since. The tabs agree over the
 * BroadcastChannel {@link SAVING_CHANNEL}; every message names its tab and the time of its claim, and of two
 * claims the newer one wins (equal times: the larger tab id), whichever arrives first:
 * - `start`: this tab saves from now on (it opened the lab, or its Save here finished): the saving tab stops;
 * - `take`: this tab's Save here asks the saving tab to stop; that one answers `ack` at once, then `released`
 *   once its last writes have landed (a tab still landing its last writes answers too; one that stopped
 *   earlier does not), and only then, and not before {@link ACK_MS}, does the taker write (so writes never
 *   interleave). When no tab answers within {@link ACK_MS} (the saving tab was closed) the taker goes on alone;
 * - a taker that hears a newer claim while it waits gives up, and one that hears it while it writes gives the
 *   session up once its writes have landed (answering a newer taker's `take` as a saving tab would): so two
 *   tabs never both end up saving;
 * - `gone`: the saving tab leaves the page (closed, reloaded, kept in the back-forward cache) or is frozen: the
 *   others say that no tab saves now, until a tab's `start` (after its `take`: a Save here; or the same tab back
 *   from the cache or unfrozen, with its old claim).
 * The page shows where it stands through {@link useSavingTabs} (./SaveState.tsx).
 */
import { create } from "zustand";
import { scopedName } from "../../lab/storage_scope";
import { reloadForEdit } from "../hot_reload";
import { isEmbedded } from "./embedded";

/** The BroadcastChannel on which the lab's tabs agree which one saves (scoped: src/lab/storage_scope.ts scopedName). */
export const SAVING_CHANNEL = "rlhf-playground-lab-saving";

/** How long a Save here waits for a saving tab to answer before it takes it that none is open, ms. */
export const ACK_MS = 1500;
/** How long a Save here waits for the saving tab's last writes to land, ms. */
export const RELEASE_MS = 120_000;

/** Where this tab's saving stands: it saves (or has no storage), another tab saves, or Save here is under way. */
export type TabSaving = "saves" | "elsewhere" | "taking";

interface SavingTabsState {
  state: TabSaving;
  /** Make this tab the one that saves (null while it saves or has no storage). */
  saveHere: (() => void) | null;
  /** While "elsewhere": the tab that saved was closed, left the page (or is reloading), so no tab saves now. */
  ownerGone: boolean;
}

/** Where this tab's saving stands, for the save indicator and the notice's Save here button. */
export const useSavingTabs = create<SavingTabsState>(() => ({
  state: "saves",
  saveHere: null,
  ownerGone: false,
}));

/** What tells how another tab took over, in the notice's first sentence. */
export type TakenBy = "opened" | "save-here";

/** What a reload of a tab that does not save does, and what Save here does instead. */
export const RELOAD_LINE =
  "Reloading this tab returns it to what the other tab saved and discards this tab's training since then; " +
  "Save here makes this tab save again, without a reload (what the other tab saved is kept under Change… → " +
  "Recent experiments).";

/**
 * The notice of a tab that another one took saving from. Embedded in a page (./embedded.ts), the other copy of
 * the lab may be a second embed on the same page, not a tab: the line says so.
 */
export function takenOverLine(by: TakenBy): string {
  if (isEmbedded()) {
    const other = "Another copy of the lab (another tab, or another embed on this page)";
    const how = by === "opened" ? "opened" : "took over (Save here)";
    return `${other} ${how} and now saves this browser's experiment: this one no longer saves. ${RELOAD_LINE}`;
  }
  const who =
    by === "opened"
      ? "Another tab opened the lab and now saves"
      : "Another tab took over (Save here) and now saves";
  return `${who} this browser's experiment: this tab no longer saves. ${RELOAD_LINE}`;
}

/** The notice of a tab that does not save once the tab that saved was closed. */
export const OWNER_GONE_LINE =
  "The tab that saved this browser's experiment was closed, left the page or is reloading: no tab saves now, so this tab's " +
  "training is not saved. Save here makes this tab save it (what that tab saved is kept under Change… → Recent " +
  "experiments).";

/** The save indicator's tooltip while another tab saves. */
export const ELSEWHERE_TITLE = `Another tab saves this browser's experiment, so this tab's training is not saved. ${RELOAD_LINE}`;

type Kind = "start" | "take" | "ack" | "released" | "gone";
interface TabMessage {
  kind: Kind;
  tab: string;
  at: number;
}

/** Claims dated further ahead than this are not a tab's (clocks of one machine agree), ms. */
const FUTURE_MS = 60_000;
const KINDS: readonly string[] = ["start", "take", "ack", "released", "gone"];

/**
 * A message of this lab, or null: a known kind, a tab id and a claim's time no later than a minute from now
 * (a message dated far ahead would win every claim: another page of the origin could stop this tab saving for
 * good). Messages of labs older than the claim times (`{ tab }` alone) are no longer honoured.
 */
function readMessage(data: unknown): TabMessage | null {
  const m = data as Partial<TabMessage> | null;
  if (typeof m?.tab !== "string" || typeof m.kind !== "string" || !KINDS.includes(m.kind)) return null;
  return typeof m.at === "number" && Number.isFinite(m.at) && m.at <= Date.now() + FUTURE_MS
    ? (m as TabMessage)
    : null;
}

/** What the link needs from the tab's savers. */
export interface TabHooks {
  /** Whether this tab saves now. */
  owns(): boolean;
  /**
   * Another tab's claim: stop saving now; the promise resolves once this tab's last writes have landed (a
   * taker writes only then).
   */
  yieldTo(by: TakenBy): Promise<void>;
  /**
   * While this tab does not save: the saving tab left the page (`gone`: it posts so as it hides for good), or a
   * tab claimed saving since (`gone` false: the one that left reopened, or another opened).
   */
  savingTabGone?(gone: boolean, by: TakenBy): void;
}

/** This tab's end of the channel. */
export interface TabLink {
  /** Tell the other tabs that this one saves from now on (a new claim): the one saving stops. */
  announce(): void;
  /**
   * Take saving over: ask the saving tab to stop and wait until its writes have landed (or until {@link ACK_MS}
   * passed without an answer: none is open), run `write`, then tell the other tabs that this one saves.
   * Resolves null when this tab now owns the session, else how a newer tab claimed it while `write` ran (the
   * session written is then that tab's to replace).
   * @throws Error when a newer claim came first (nothing written), when the saving tab's writes did not land
   *   within `releaseMs`, or what `write` throws.
   */
  take(write: () => Promise<void>, ackMs?: number, releaseMs?: number): Promise<TakenBy | null>;
  /** Stop listening (the lab closes). */
  close(): void;
}

/** A fresh id for this tab as the session's writer (src/lab/persist.ts claim). */
export function newWriterId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** A claim newer than `than`. */
const newer = (m: { at: number; tab: string }, than: { at: number; tab: string }) =>
  m.at > than.at || (m.at === than.at && m.tab > than.tab);

/** Join the other tabs (a no-op link where BroadcastChannel is missing). */
export function linkTabs(
  hooks: TabHooks,
  /** Where `pagehide` and `pageshow` fire, and its document `freeze` and `resume` (window; tests: a stub). */
  page: (EventTarget & { document?: EventTarget }) | null = typeof window === "undefined" ? null : window,
): TabLink {
  const tab = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  let claim = { tab, at: Date.now() };
  const channel =
    typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(scopedName(SAVING_CHANNEL));
  (channel as { unref?: () => void } | null)?.unref?.(); // Node (tests): do not keep the process alive
  const post = (kind: Kind) => channel?.postMessage({ kind, tab, at: claim.at } satisfies TabMessage);
  /** Tabs heard asking to take saving over (their "start" then ends a Save here, not an opening). */
  const takers = new Set<string>();
  /** This tab's take, waiting for the saving tab. */
  let waiting: { ack(from: string): void; released(from: string): void; abort(): void } | null = null;
  /** This tab's take is writing: a newer claim meanwhile makes it give the session up afterwards. */
  let writing: { by: TakenBy | null } | null = null;
  /** Writes that a taker must wait for: the last ones of this tab, once it stopped saving or while it takes. */
  let landing: Promise<void> | null = null;

  /** Answer a taker: it waits until this tab's writes have landed. */
  const answer = (writes: Promise<void>) => {
    post("ack");
    writes.then(() => post("released"));
  };
  const claimed = (m: TabMessage) => {
    if (!newer(m, claim)) return; // an older claim: its tab gives way, not this one
    // A tab's Save here ends with its "start" after its "take": the others say which it was.
    if (m.kind === "take") takers.add(m.tab);
    if (m.kind === "start" && !hooks.owns())
      hooks.savingTabGone?.(false, takers.delete(m.tab) ? "save-here" : "opened");
    if (waiting) return waiting.abort();
    if (writing) {
      writing.by = m.kind === "take" ? "save-here" : "opened";
      if (m.kind === "take" && landing) answer(landing);
      return;
    }
    if (hooks.owns()) settleLanding(hooks.yieldTo(m.kind === "take" ? "save-here" : "opened"));
    // Only a tab whose writes are still landing answers: one that stopped long ago has nothing to wait for, and
    // its instant "released" would let the taker write before the saving tab has even answered.
    if (m.kind === "take" && landing) answer(landing);
  };
  /** Writes to wait for until they settle (then there is nothing to answer with any more). */
  const settleLanding = (writes: Promise<void>) => {
    landing = writes;
    writes.then(() => {
      if (landing === writes) landing = null;
    });
  };
  if (channel)
    channel.onmessage = (e: MessageEvent<unknown>) => {
      const m = readMessage(e.data);
      if (!m || m.tab === tab) return;
      if (m.kind === "ack") waiting?.ack(m.tab);
      else if (m.kind === "released") waiting?.released(m.tab);
      else if (m.kind === "gone") {
        if (!hooks.owns()) hooks.savingTabGone?.(true, "opened");
      } else claimed(m);
    };
  // The saving tab leaving the page tells the others, which would otherwise go on saying that it saves: closed,
  // reloading, or kept in the back-forward cache (it saves nothing there, and the browser may drop it from the
  // cache, or its tab be closed, without another event); frozen likewise (a discarded tab fires no pagehide).
  // Coming back (pageshow from the cache, resume) it claims again with its old claim's time: a tab that claimed
  // since keeps saving (and a cached page that hears any message is evicted: it reloads instead).
  const hidden = () => {
    if (hooks.owns()) post("gone");
  };
  const shown = (e: Event) => {
    if (e.type === "pageshow" && !(e as PageTransitionEvent).persisted) return;
    if (hooks.owns()) post("start");
  };
  page?.addEventListener("pagehide", hidden);
  page?.addEventListener("pageshow", shown);
  page?.document?.addEventListener("freeze", hidden);
  page?.document?.addEventListener("resume", shown);

  /**
   * Post `take` and wait until every tab that answered has released, and at least ackMs (a tab answering later,
   * say the saving one behind one whose last writes were landing, is waited for too); none answering: ackMs.
   */
  const released = (ackMs: number, releaseMs: number) =>
    new Promise<void>((resolve, reject) => {
      const answered = new Set<string>();
      const until = performance.now() + ackMs;
      let timer = setTimeout(() => end(resolve), ackMs); // no tab answered: none saves
      const end = (f: () => void) => {
        clearTimeout(timer);
        waiting = null;
        f();
      };
      waiting = {
        ack(from) {
          if (answered.size === 0) {
            clearTimeout(timer);
            timer = setTimeout(
              () => end(() => reject(new Error("the other tab's last save did not finish"))),
              releaseMs,
            );
          }
          answered.add(from);
        },
        released(from) {
          answered.delete(from);
          if (answered.size > 0) return;
          clearTimeout(timer);
          timer = setTimeout(() => end(resolve), Math.max(0, until - performance.now()));
        },
        abort: () => end(() => reject(new Error("another tab took over saving first"))),
      };
      post("take");
    });

  return {
    announce() {
      claim = { tab, at: Math.max(Date.now(), claim.at + 1) };
      post("start");
    },
    async take(write, ackMs = ACK_MS, releaseMs = RELEASE_MS) {
      claim = { tab, at: Math.max(Date.now(), claim.at + 1) };
      await released(ackMs, releaseMs);
      const mine: { by: TakenBy | null } = { by: null };
      writing = mine;
      const writes = write();
      settleLanding(
        writes.then(
          () => {},
          () => {},
        ),
      );
      try {
        await writes;
      } finally {
        writing = null;
      }
      if (mine.by) return mine.by;
      landing = null;
      post("start"); // with the take's time: a tab that claimed since keeps its claim
      return null;
    },
    close() {
      waiting?.abort();
      page?.removeEventListener("pagehide", hidden);
      page?.removeEventListener("pageshow", shown);
      page?.document?.removeEventListener("freeze", hidden);
      page?.document?.removeEventListener("resume", shown);
      channel?.close();
    },
  };
}

// Editing this module under `npx vite` reloads the page, saving first (../hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
