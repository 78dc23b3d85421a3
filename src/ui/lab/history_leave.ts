/**
 * Back, Forward or a link pasted into the address bar (./saving.ts hashChanged) move the address before the page
 * can ask. When leaving for it would forget something trained — the open experiment not kept, or a kept one
 * forgotten to make room (./keep_room.ts roomFor, as the Change… dialog and the lesson picker say it first) —
 * the page stays, its address goes back, and the notice names what would be forgotten, with "Open the link
 * anyway" and "Stay" (./LeaveAskButtons.tsx). Where nothing trained would be lost, the page leaves as before.
 */
import { create } from "zustand";
import { type ArchiveEntry, keepsCurves } from "../../lab/archive";
import type { ExperimentSpec } from "../../lab/protocol";
import { specFromHash } from "../../lab/url";
import { trainedSteps, useLab } from "../lab_store";
import { experimentTitle } from "./experiment_names";
import { hereOf, pipelineKept, roomFor } from "./keep_room";
import { usePipelineStore } from "./pipeline_store";
import { keptLine } from "./saving_lines";
import { matchesLink } from "./session_lines";

/** The link the address moved to while the notice asks about it (`line`: what the notice says). */
export interface LeaveAsk {
  url: string;
  line: string;
}

export const useLeaveAsk = create<{ ask: LeaveAsk | null }>(() => ({ ask: null }));

/**
 * The experiment `url` opens, or null when it reopens this one: an address without a link (the saved session,
 * this experiment, opens), or a link holding every run open here with the same settings (they all resume).
 */
function targetOf(url: string, open: ExperimentSpec): ExperimentSpec | null {
  const opened = specFromHash(new URL(url, location.href).hash);
  if (opened.source === "default" && opened.notice === null) return null;
  return matchesLink(opened.spec, open) ? null : opened.spec;
}

/**
 * What leaving for `url` would forget of what is trained, as the notice says it (null: nothing, or not known):
 * the open experiment not kept, or the kept one(s) forgotten to make room. `listed`: the kept experiments, read
 * only when there is something to lose; null at once when there is nothing (the leave then waits for nothing).
 */
export function lossOnLeaving(
  url: string,
  listed: () => Promise<readonly ArchiveEntry[]>,
): Promise<string | null> | null {
  const lab = useLab.getState();
  if (lab.saving === null) return null; // this tab keeps nothing (another tab saves, or none)
  const steps = trainedSteps(lab);
  const compared = Object.values(lab.runs).filter((r) => r.comparison && keepsCurves(r)).length;
  const pipeline = pipelineKept(usePipelineStore.getState());
  if (steps === 0 && compared === 0 && !pipeline) return null;
  const target = targetOf(url, lab.spec);
  if (!target) return null;
  const here = hereOf(lab.spec, lab.runs, pipeline);
  return listed().then(
    (list) => {
      const room = roomFor(list, here, target);
      if (!room.notKept && room.forget.length === 0) return null;
      const line = keptLine({ steps, compared, pipeline, room }, true);
      return (
        `The address moved to another experiment (${experimentTitle(target)}), so this one stays open until ` +
        `you choose. If that one opens, ${line[0].toLowerCase()}${line.slice(1)}.`
      );
    },
    () => null, // the list cannot be read: nothing to say beforehand (the notice after says what happened)
  );
}

/** Ask about `url` in the notice ({@link lossOnLeaving}'s `line`), with the buttons to open it or stay. */
export function askToLeave(url: string, line: string): void {
  useLeaveAsk.setState({ ask: { url, line } });
  useLab.getState().setNotice(line);
}

/** The question answered (either way): it leaves the notice. Returns the link it asked about. */
export function answered(): string | null {
  const ask = useLeaveAsk.getState().ask;
  if (!ask) return null;
  useLeaveAsk.setState({ ask: null });
  const notice = useLab.getState().notice;
  if (notice?.includes(ask.line)) useLab.getState().setNotice(notice.replace(ask.line, "").trim() || null);
  return ask.url;
}
