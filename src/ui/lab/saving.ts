/**
 * The open lab's savers — the autosaver and the Pipeline saver, as ./savers.ts starts them —
 * and what goes through them when the page leaves its experiment: opening another link (a lesson, Change…)
 * saves the latest curves and checkpoints first, so that the runs it replaces are kept at their last step,
 * and reopening a kept experiment (Recent experiments, src/lab/archive.ts) stops saving, waits for the
 * writes in flight, swaps the two sessions in storage and opens the kept one's link. Replacing the runs in
 * this page (the Pipeline's hand-off) keeps the open experiment first (keepOpenExperiment). One tab of the
 * lab saves at a time (./saving_tabs.ts); "Save here" takes saving over from another tab (./save_here.ts).
 * What must end before the page leaves (a Pipeline stage in training) registers in ./before_leaving.ts; the
 * lines said about saving are ./saving_lines.ts's.
 */
import type { KeptEntry } from "../../lab/archive";
import type { LabPersistence } from "../../lab/persist";
import type { ExperimentSpec } from "../../lab/protocol";
import { forgetReached, pageStorage } from "../../lab/reached";
import { shareUrl } from "../../lab/url";
import { errorMessage as message } from "../../util/errors";
import { askAgain, leaveUnasked } from "../../util/leave_prompt";
import { landsWithin } from "../../util/settle";
import { onHotReload, reloadForEdit } from "../hot_reload";
import { useLab } from "../lab_store";
import { cannotLeave } from "./before_leaving";
import { openAddress } from "./embedded";
import { askToLeave, checkMove, movedAgain, newerMove } from "./history_leave";
import { markOpened } from "./opened_focus";
import { recentChanged } from "./recent_listeners";
import { writeHere } from "./save_here";
import { saveLatest } from "./save_latest";
import { startSavers } from "./savers";
import { askBeforeLosingTraining, savingTabGone } from "./saving_elsewhere";
import { savedHereLine, withoutTakenOver } from "./saving_lines";
import { linkTabs, newWriterId, takenOverLine, useSavingTabs } from "./saving_tabs";
import type { Saving, SavingDeps } from "./saving_types";
import { writeUrlNow } from "./url_sync";

export type { Saving, SavingDeps } from "./saving_types";

/**
 * Start the open lab's savers. One tab saves (./saving_tabs.ts): starting tells the others, which stop; when
 * another tab takes over later, this one stops and says so ({@link takenOverLine}), and its Save here
 * ({@link Saving.saveHere}) takes saving back.
 */
export function startSaving(
  persistence: LabPersistence,
  deps: SavingDeps,
  onError: (line: string) => void,
  /** This tab as the session's writer: its claim refuses the late writes of the tab that saved before. */
  writer = newWriterId(),
): Saving {
  const start = () => {
    // A claim that cannot be written yet (storage full) goes with this tab's next write that can.
    persistence.claim(writer);
    return startSavers(persistence, deps, onError);
  };
  let on = start();
  useLab.getState().setSaving(false);
  useSavingTabs.setState({ state: "saves", saveHere: null });
  /** The writes of this tab's savers since another tab took over: they land before its Save here writes. */
  let stopped: Promise<void> = Promise.resolve();
  /** Stops asking before the page unloads (./saving_elsewhere.ts): set while another tab saves. */
  let unguard = () => {};
  const saving: Saving = {
    persistence,
    get autosaver() {
      return on.autosaver;
    },
    flushPipeline() {
      return on.pipeline.flush();
    },
    pause() {
      if (useLab.getState().playing) deps.pause?.();
    },
    async stop() {
      const was = on;
      await Promise.all([was.autosaver.stop(), was.pipeline.stop()]);
      // Savers restarted meanwhile (an Open that gave up) keep their indicator.
      if (on === was) useLab.getState().setSaving(null);
    },
    restart() {
      on = start();
      useLab.getState().setSaving(false);
      tabs.announce();
    },
    async saveHere() {
      if (current === saving || useSavingTabs.getState().state !== "elsewhere") return;
      useSavingTabs.setState({ state: "taking" });
      let kept: KeptEntry | null = null;
      /** The other tab had let go when this tab's writing failed: then no tab saves. */
      let writeFailed = false;
      try {
        const by = await tabs.take(async () => {
          await stopped; // this tab's own last writes land first: none may land over what it writes now
          try {
            await persistence.claim(writer); // the other tab's late writes are refused from here
            kept = await writeHere(persistence, deps);
          } catch (e) {
            writeFailed = true;
            throw e;
          }
        });
        if (by) {
          useSavingTabs.setState({ state: "elsewhere" });
          onError(takenOverLine(by));
          return;
        }
      } catch (e) {
        useSavingTabs.setState({ state: "elsewhere" });
        onError(
          writeFailed
            ? `Save here did not finish (${message(e)}): the other tab had stopped saving, so no tab saves now; press Save here again (what this browser had saved is still there).`
            : `Save here did not finish (${message(e)}): this tab still does not save.`,
        );
        return;
      }
      // This tab owns the session from here (no message of another tab runs before these lines).
      unguard();
      on = start();
      useLab.getState().setSaving(false);
      useSavingTabs.setState({ state: "saves", saveHere: null });
      setOpenSaving(saving);
      const rest = withoutTakenOver(useLab.getState().notice);
      const said = savedHereLine(kept);
      savedHereSaid = said;
      useLab.getState().setNotice(rest ? `${rest} ${said}` : said);
    },
    close() {
      tabs.close();
      unguard();
      useSavingTabs.setState({ state: "saves", saveHere: null, ownerGone: false });
    },
  };
  // One tab saves: the browser keeps one open session, so the lab opened last takes it over and the others
  // stop writing (two tabs saving would write one experiment's steps into the other's session).
  const tabs = linkTabs({
    owns: () => current === saving,
    savingTabGone,
    yieldTo(by) {
      handedOver();
      unguard();
      unguard = askBeforeLosingTraining();
      useSavingTabs.setState({
        state: "elsewhere",
        saveHere: () => void saving.saveHere(),
        ownerGone: false,
      });
      // "This tab saves again" no longer holds: the new state replaces it rather than contradict it.
      const notice = useLab.getState().notice;
      if (savedHereSaid && notice?.includes(savedHereSaid))
        useLab.getState().setNotice(notice.replace(savedHereSaid, "").trim() || null);
      savedHereSaid = null;
      onError(takenOverLine(by));
      const was = on;
      stopped = (async () => {
        // A taker keeps what this tab saved: its latest curves first (not after a tab opened: that one
        // already writes its own session).
        if (by === "save-here") await was.autosaver.flush().catch(() => {});
        await saving.stop();
      })();
      return stopped;
    },
  });
  tabs.announce();
  return saving;
}

/** What this tab's last Save here said (taken out of the notice when another tab takes saving again). */
let savedHereSaid: string | null = null;

// Hooks run before the page leaves (./before_leaving.ts), what the lab says about where it saves (./saving_lines.ts),
// the channel on which tabs agree which one saves (./saving_tabs.ts), who hears the kept list change.
export { onBeforeLeaving } from "./before_leaving";
export { onRecentChange, recentChanged } from "./recent_listeners";
export { saveLatest } from "./save_latest";
export { keptLine, savedHereLine } from "./saving_lines";
export { SAVING_CHANNEL } from "./saving_tabs";

/** The open lab's savers (null until it started, or without storage). */
let current: Saving | null = null;
/**
 * Where this tab reads the kept experiments: its savers' storage, kept when another tab takes saving over (the
 * list is still there to read; opening or forgetting one is the saving tab's business).
 */
let reader: LabPersistence | null = null;
/** Why the open lab has no savers (set with them by the session; null: no storage, or not said). */
let notSavingWhy: string | null = null;
/** A navigation to another experiment has begun: a second one would race it. */
let leaving = false;
/** A kept experiment being reopened ({@link openRecent}): true once its link opens, false when that failed. */
let reopening: Promise<boolean> | null = null;
/** The leave under way ({@link leaveFor}): a second call gets its answer. */
let inFlight: Promise<boolean> | null = null;
/** The address moved (Back, Forward) while a leave was under way: a refusal puts this experiment's back. */
let moved = false;
/** The page has asked the browser for another address ({@link go}): its hashchange is ours. */
let assigned = false;
/** Writes of savers stopped by a failed Open that had not landed: a later Open waits for them too. */
let unfinished: Promise<unknown> | null = null;

/** Set by src/ui/lab/session.ts when the lab starts (and cleared when it stops). */
export function setOpenSaving(saving: Saving | null, why: string | null = null): void {
  current = saving;
  reader = saving?.persistence ?? null;
  notSavingWhy = saving ? null : why;
  leaving = false;
  reopening = null;
  inFlight = null;
  assigned = false;
  unfinished = null; // a new lab's savers (tests open several in one page)
  askAgain();
  recentChanged();
}

export function openSaving(): Saving | null {
  return current;
}

const noStorage = () => new Error("this browser's storage is unavailable");

/** The experiments kept in this browser, newest first ([] without storage). */
export async function recentExperiments() {
  return (current?.persistence ?? reader)?.archive.list() ?? [];
}

/** Another tab took saving over: this one stops saving but still reads the kept experiments. */
function handedOver(): void {
  const was = reader;
  setOpenSaving(null);
  reader = was;
}

/** Forget a kept experiment. @throws Error without storage. */
export async function forgetRecent(id: string): Promise<void> {
  if (!current) throw noStorage();
  await current.persistence.archive.remove(id);
  recentChanged(); // the confirmations' view of the list (./use_room.ts) reads it again
}

/** Why the open lab has no savers, as the session said (null: not said; see ./keep_open.ts whyNotKept). */
export function notSavingReason(): string | null {
  return notSavingWhy;
}

/**
 * Stop saving and wait for the writes in flight (and those of an earlier failed try); throw when they have not
 * landed after `waitMs`.
 */
async function stopWithin(saving: Saving, waitMs: number): Promise<void> {
  const landed = Promise.all([saving.stop(), unfinished]);
  if (!(await landsWithin(landed, waitMs))) {
    unfinished = landed;
    throw new Error("this experiment's last save did not finish; reload the page and try again");
  }
  unfinished = null;
}

/**
 * Open `url`; the same address as now reloads (assigning it would not). What leaving loses was said and
 * confirmed in the page first (or nothing is lost): the browser's "Leave site?" does not ask again. Embedded,
 * it replaces the address (./embedded.ts): no entry in the host page's history.
 */
function go(url: string): void {
  assigned = true;
  leaveUnasked();
  if (new URL(url, location.href).href === location.href) location.reload();
  else openAddress(url);
}

/**
 * Leave for another experiment's link (a lesson, the Change… dialog, a pasted link): end what must end first
 * ({@link onBeforeLeaving}: a Pipeline stage in training stops), pause, save the open lab's latest curves
 * and checkpoints (at most `waitMs`), so that the runs it replaces are kept at their last step, then open
 * `url`. A second call while leaving gets the first one's answer (while a kept experiment is reopened, its
 * outcome). Never throws. Back or Forward before it opens `url`: the latest address is checked and opened instead.
 * `fromHistory`: the address already moved (Back, Forward, a pasted link); refused or asked, this experiment's
 * link goes back as a new entry (the one moved to stays). `probed`: the page's server's answer the caller just
 * had (before_leaving.ts cannotLeave), not asked again for `url`. @returns false: it stays (the notice says why).
 */
export function leaveFor(url: string, waitMs = 8000, fromHistory = false, probed?: string | null) {
  if (inFlight) return inFlight;
  // A kept experiment is being opened (Recent experiments): this one leaves with it, or stays when that failed
  // (a moved address then goes back to this experiment's).
  if (leaving && reopening)
    return reopening.then((ok) => {
      if (!ok && fromHistory) writeUrlNow(true);
      return ok;
    });
  if (leaving) return Promise.resolve(true);
  moved = fromHistory;
  inFlight = leave(url, waitMs, fromHistory, probed).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function leave(to: string, waitMs: number, fromHistory: boolean, probed?: string | null) {
  leaving = true;
  let url = to;
  // Back, Forward, a pasted link: what leaving would forget is asked now (./history_leave.ts), not after; a
  // move through history meanwhile (while checked, while offline is probed, while the latest state is saved,
  // also after an in-page confirmation such as Open anyway) is then checked, and opened or asked about.
  for (let next: string | null = to; next; next = moved ? newerMove(url) : null) {
    const checks = fromHistory || next !== to; // `to` itself was confirmed in the page (or loses nothing)
    const move = checks ? checkMove(next, recentExperiments) : { url: next, loss: null };
    const checked = move instanceof Promise ? await move : move; // no wait when nothing is lost
    url = checked.url;
    // A Pipeline stage in training ends first (its model so far is then saved with the experiment).
    const why = checked.loss ? null : await cannotLeave(next === to ? probed : undefined);
    if (checked.loss || why) {
      leaving = false;
      writeUrlNow(moved); // the address goes back to the experiment that stays open
      if (checked.loss) askToLeave(url, checked.loss);
      else useLab.getState().setNotice(`${why}, so this experiment stays open: try again.`);
      return false;
    }
    if (current) await saveLatest(current, waitMs);
  }
  markOpened(); // the next load focuses and names what opened
  go(url);
  return true;
}

/**
 * The page's hash changed: a link pasted into the address bar (leave for it, saving first), or our own
 * `location.assign` (embedded: `replace`) of another experiment's link, which changes only the hash (reload into it now).
 */
export function hashChanged(): void {
  if (assigned) location.reload();
  else if (inFlight) {
    moved = true; // Back again while a leave is checked: the latest address is checked as it ends
    movedAgain(location.href);
  } else void leaveFor(location.href, undefined, true);
}

/**
 * Reopen a kept experiment: pause, save the open one's latest state, stop saving and wait for the writes in
 * flight, swap the two sessions in storage (the open one is kept when it trained), then open the kept one's
 * link: the page reloads into it and its runs resume from their checkpoints.
 * @throws Error when storage is unavailable, another experiment is being opened, the entry is gone, or the open
 *   experiment's writes have not landed after `stopMs` (then nothing is swapped until they have); the open lab
 *   goes on saving then.
 */
export function openRecent(id: string, waitMs = 8000, stopMs = 120_000): Promise<void> {
  const saving = current;
  if (!saving) return Promise.reject(noStorage());
  if (leaving) return Promise.reject(new Error("another experiment is being opened"));
  leaving = true;
  const opening = reopen(saving, id, waitMs, stopMs);
  const outcome = opening.then(
    () => true,
    () => {
      if (reopening === outcome) reopening = null;
      return false;
    },
  );
  reopening = outcome;
  return opening;
}

async function reopen(saving: Saving, id: string, waitMs: number, stopMs: number): Promise<void> {
  const why = await cannotLeave();
  if (why) {
    leaving = false;
    throw new Error(why);
  }
  let spec: ExperimentSpec;
  try {
    await saveLatest(saving, waitMs);
    // The writes in flight land first (a late one would land in the swapped-in session); one that never lands
    // (the worker stopped answering) must not leave the page stuck "opening": after stopMs, give up, swap nothing.
    await stopWithin(saving, stopMs);
    if (current !== saving) throw new Error("another tab took over saving this browser's experiments");
    spec = await saving.persistence.archive.swapIn(id);
  } catch (e) {
    leaving = false;
    if (current === saving) saving.restart(); // not when another tab took over saving meanwhile
    throw e;
  }
  const { xAxis, klEstimator, smoothing } = useLab.getState().view;
  // The steps-reached record is the experiment being left's (its autosaver has stopped): not the reopened one's.
  forgetReached(pageStorage());
  go(shareUrl(spec, { xAxis, klEstimator, smoothing }, location.href));
}

// Editing this module under `npx vite` reloads the page (../hot_reload.ts), after the open lab saved its latest state.
if (import.meta.hot) {
  onHotReload(async () => {
    if (current) await saveLatest(current, 8000);
  });
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
