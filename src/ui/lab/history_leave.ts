/**
 * Back, Forward or a link pasted into the address bar (./saving.ts hashChanged) move the address before the page
 * can ask. When leaving for it would forget something trained — the open experiment not kept, or a kept one
 * forgotten to make room (./keep_room.ts roomFor, as the Change… dialog and the lesson picker say it first), the
 * training of a tab that no longer saves, or what was not saved while saving fails — the page stays, its address
 * goes back, and the notice names what would be forgotten, with "Open the link anyway" and "Stay"
 * (./LeaveAskButtons.tsx). Where nothing trained would be lost, the page leaves as before.
 */
import { create } from "zustand";
import { type ArchiveEntry, keepsCurves } from "../../lab/archive";
import { sameExperiment } from "../../lab/restore";
import { specFromHash } from "../../lab/url";
import { without } from "../client_notices";
import { reloadForEdit } from "../hot_reload";
import { trainedSteps, useLab } from "../lab_store";
import { experimentTitle } from "./experiment_names";
import { hereOf, pipelineKept, roomFor } from "./keep_room";
import { usePipelineStore } from "./pipeline_store";
import { trainedSinceNotSaving } from "./saving_elsewhere";
import { failingLine, keptLine, saysWhoSaves } from "./saving_lines";
import { linkDropsTraining } from "./session_keep";
import { matchesLink } from "./session_lines";

/** What leaving would lose: `line`, as the notice says it; `key`, the outcome (which loss), to see it change. */
export interface Loss {
  line: string;
  key: string;
}

/** The link the address moved to while the notice asks about it, and what leaving for it would lose. */
export interface LeaveAsk extends Loss {
  url: string;
}

export const useLeaveAsk = create<{ ask: LeaveAsk | null }>(() => ({ ask: null }));

const lower = (line: string) => `${line[0].toLowerCase()}${line.slice(1)}`;

/**
 * What leaving for `url` would forget of what is trained, as the notice says it (null: nothing, or not known).
 * It leaves as ./session.ts opens the link: an address without a link reopens the saved session (this
 * experiment); a link resumes the runs it shares with this experiment (./session_keep.ts linkDropsTraining:
 * nothing lost when it drops no trained run), and reopens a kept experiment only when it is a readable link to
 * another one than this. `listed`: the kept experiments, read only when needed; null at once when nothing is lost.
 */
export function lossOnLeaving(
  url: string,
  listed: () => Promise<readonly ArchiveEntry[]>,
): Promise<Loss | null> | null {
  const lab = useLab.getState();
  const opened = specFromHash(new URL(url, location.href).hash);
  if (opened.source === "default" && opened.notice === null) return null;
  const target = opened.spec;
  const pipeline = pipelineKept(usePipelineStore.getState());
  if (!linkDropsTraining(lab.spec, Object.values(lab.runs), pipeline, target)) return null;
  const steps = trainedSteps(lab);
  const compared = Object.values(lab.runs).filter((r) => r.comparison && keepsCurves(r)).length;
  const title = experimentTitle(target);
  const head = `${
    opened.source !== "url"
      ? `The address moved to a link that cannot be read (the default experiment, ${title}, would open)`
      : sameExperiment(lab.spec, target)
        ? `The address moved to a link of this experiment (${title}) that does not resume all its trained runs`
        : `The address moved to another experiment (${title})`
  }, so this one stays open until you choose.`;
  if (lab.saving === null) {
    // Another tab saves: what this one trained since is in this page only (the browser asks too, on reload).
    // Who saves is said once: the notice's own line about it (./saving_tabs.ts takenOverLine) is not repeated.
    if (!trainedSinceNotSaving()) return null;
    const kept = saysWhoSaves(lab.notice)
      ? ""
      : ` ${keptLine({ steps, compared, pipeline, room: null }, false)}.`;
    return Promise.resolve({
      key: "not saving",
      line: `${head} If that one opens, the training this tab did not save (runs up to step ${steps}) is lost.${kept}`,
    });
  }
  if (lab.saveFailed)
    return Promise.resolve({
      key: "failing",
      line: `${head} ${failingLine(lab.saveFailed, steps)} if that one opens.`,
    });
  const here = hereOf(lab.spec, lab.runs, pipeline);
  // Only a readable link to another experiment than this reopens a kept one (swapped out of the list first).
  const reopens = opened.source === "url" && !matchesLink(lab.spec, target);
  return listed().then(
    (list) => {
      const room = roomFor(list, here, reopens ? target : null);
      if (!room.notKept && room.forget.length === 0) return null;
      const line = keptLine({ steps, compared, pipeline, room }, true);
      const key = room.notKept ? "not kept" : `forgets ${room.forget.map((e) => e.id).join(" ")}`;
      return { key, line: `${head} If that one opens, ${lower(line)}.` };
    },
    () => null, // the list cannot be read: nothing to say beforehand (the notice after says what happened)
  );
}

/** The address Back or Forward moved to again while a move was checked (null: none since). */
let movedTo: string | null = null;

/** Back or Forward again while a move is checked: the latest address is the one checked next. */
export function movedAgain(url: string): void {
  movedTo = url;
}

/** Where a move through history leads ({@link checkMove}): the link to open, and what leaving for it would lose. */
export interface Move {
  url: string;
  loss: Loss | null;
}

/**
 * Check a move through history to `url` ({@link lossOnLeaving}); when the address moved again meanwhile, the
 * latest one is checked in its turn. At once (no promise) when nothing would be lost.
 */
export function checkMove(url: string, listed: () => Promise<readonly ArchiveEntry[]>): Move | Promise<Move> {
  movedTo = null;
  const asking = lossOnLeaving(url, listed);
  if (!asking) return { url, loss: null };
  return asking.then((loss) => {
    const to = newerMove(url);
    return to === null ? { url, loss } : checkMove(to, listed);
  });
}

/** The address Back or Forward moved to since {@link checkMove} began, unless it is `url` (then forgotten). */
export function newerMove(url: string): string | null {
  const to = movedTo;
  movedTo = null;
  return to === url ? null : to;
}

/** Ask about `url` in the notice ({@link lossOnLeaving}'s `line`, in place of an earlier question), with the buttons. */
export function askToLeave(url: string, loss: Loss): void {
  const before = useLeaveAsk.getState().ask;
  let notice = (before ? without(useLab.getState().notice, [before.line]) : useLab.getState().notice) ?? "";
  useLeaveAsk.setState({ ask: { url, ...loss } });
  if (!notice.includes(loss.line)) notice = notice ? `${notice} ${loss.line}` : loss.line;
  useLab.getState().setNotice(notice);
}

/** The question answered (either way): it leaves the notice. Returns the link it asked about. */
export function answered(): string | null {
  const ask = useLeaveAsk.getState().ask;
  if (!ask) return null;
  useLeaveAsk.setState({ ask: null });
  const notice = useLab.getState().notice;
  if (notice?.includes(ask.line)) useLab.getState().setNotice(without(notice, [ask.line]));
  return ask.url;
}

/** The notice was dismissed (its ×): the question goes with it. */
export function noticeDismissed(): void {
  useLeaveAsk.setState({ ask: null });
}

// Editing this module under `npx vite` reloads the page, saving first (../hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
