/**
 * What the lab says about where it saves (./saving.ts): the line of the confirmations that replace the
 * experiment (a lesson, Change…) on what is kept, the notice's line once Save here made this tab the saving
 * one, and the notice without the lines that said another tab saves (./saving_tabs.ts takenOverLine).
 */
import type { KeptEntry } from "../../lab/archive";
import { droppedText, experimentTitle, keptRunsText, leastText, NOT_KEPT_WHY } from "./experiment_names";
import type { Room } from "./keep_room";
import { OWNER_GONE_LINE, takenOverLine, useSavingTabs } from "./saving_tabs";
import { tabWords } from "./tab_words";

/** What the notice says once Save here made this tab the saving one; `kept`: the other tab's session kept. */
export function savedHereLine(kept: KeptEntry | null): string {
  const line = "This tab saves again: a reload resumes every run where it is now.";
  if (!kept) return line;
  const what = `What the other tab had saved (${experimentTitle(kept.spec, kept.startModel)}: ${keptRunsText(kept)})`;
  return kept.kept
    ? `${line} ${what} is kept: reopen it from Change… → Recent experiments.${droppedText(kept.dropped)}`
    : `${line} ${what} was not kept: ${NOT_KEPT_WHY}.${droppedText(kept.dropped)}`;
}

/** The notice without the lines that said another tab saves. */
export function withoutTakenOver(notice: string | null): string {
  let n = notice ?? "";
  for (const by of ["opened", "save-here"] as const) n = n.split(takenOverLine(by)).join("");
  n = n.split(OWNER_GONE_LINE).join("");
  return n.replace(/ {2,}/g, " ").trim();
}

/** Whether the notice already says that this tab does not save because of another tab (or that none saves now). */
export function saysWhoSaves(notice: string | null): boolean {
  const lines = [takenOverLine("opened"), takenOverLine("save-here"), OWNER_GONE_LINE];
  return notice !== null && lines.some((l) => notice.includes(l));
}

/** What leaving would keep of the open experiment, for {@link keptLine}. */
export interface Keeping {
  /** The furthest step a run trained here (lab_store trainedSteps). */
  steps: number;
  /** Runs imported for comparison, with curves. */
  compared: number;
  /** The Pipeline's models go along. */
  pipeline: boolean;
  /** What keeping it does to a full list (./keep_room.ts); null: not known. */
  room: Room | null;
}

/** "its training (runs up to step 40) and Pipeline models", "its 2 runs imported for comparison"… */
export function keepingText(k: Keeping): string {
  const parts = [
    ...(k.steps > 0 ? [`training (runs up to step ${k.steps})`] : []),
    ...(k.compared > 0 ? [`${k.compared} run${k.compared === 1 ? "" : "s"} imported for comparison`] : []),
    ...(k.pipeline ? ["Pipeline models"] : []),
  ];
  return `its ${parts.join(" and ") || "runs"}`;
}

/**
 * What replacing the experiment keeps, for the confirmations (a lesson, Change…), without the final period:
 * when this tab saves (`saves`: the store's saving is not null), its training {@link keepingText} `where` (and
 * what that forgets to make room, or that it is not kept: the kept ones each hold more training); else what
 * another tab saved, or nothing.
 */
export function keptLine(k: Keeping, saves: boolean, where = "under Change… → Recent experiments"): string {
  if (saves) {
    if (k.room?.notKept)
      return (
        `This browser will not keep ${keepingText(k)}: ${NOT_KEPT_WHY} (Change… → Recent experiments); ` +
        "forget one there first to keep this one"
      );
    const forget = k.room?.forget.length ? `. To make room, it will forget ${leastText(k.room.forget)}` : "";
    return `This browser keeps ${keepingText(k)} ${where}${forget}`;
  }
  const tabs = useSavingTabs.getState();
  if (tabs.state !== "saves")
    return tabWords(
      tabs.ownerGone
        ? "No tab saves now (the tab that saved was closed or left the page): only what this browser saved before is kept, under Change… → Recent experiments; Save here first keeps this tab's training"
        : "This tab no longer saves (another tab does): only what this browser saved before is kept, under Change… → Recent experiments",
    );
  return tabWords("This tab is not saving (see the notice above), so its training is not kept");
}

/**
 * What replacing the experiment keeps while saving is failing (`failed`: the store's saveFailed), without the
 * final period: "Saving is failing (…): only what was saved before, not the training up to step 12, would be kept
 * under Recent experiments" (the Change… dialog, a move through history: ./history_leave.ts).
 */
export function failingLine(failed: string, steps: number): string {
  const why = failed.replace(/^Saving the lab in this browser failed: /, "").replace(/\.$/, "");
  const what = steps > 0 ? `the training up to step ${steps}` : "what is here now";
  return `Saving is failing (${why}): only what was saved before, not ${what}, would be kept under Recent experiments`;
}
