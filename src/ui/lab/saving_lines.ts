/**
 * What the lab says about where it saves (./saving.ts): the line of the confirmations that replace the
 * experiment (a lesson, Change…) on what is kept, the notice's line once Save here made this tab the saving
 * one, and the notice without the lines that said another tab saves (./saving_tabs.ts takenOverLine).
 */
import type { KeptEntry } from "../../lab/archive";
import { droppedText, experimentTitle, keptRunsText } from "./experiment_names";
import { OWNER_GONE_LINE, takenOverLine, useSavingTabs } from "./saving_tabs";

/** What the notice says once Save here made this tab the saving one; `kept`: the other tab's session kept. */
export function savedHereLine(kept: KeptEntry | null): string {
  const line = "This tab saves again: a reload resumes every run where it is now.";
  if (!kept) return line;
  return (
    `${line} What the other tab had saved (${experimentTitle(kept.spec, kept.startModel)}: ${keptRunsText(kept)}) ` +
    `is kept: reopen it from Change… → Recent experiments.${droppedText(kept.dropped)}`
  );
}

/** The notice without the lines that said another tab saves. */
export function withoutTakenOver(notice: string | null): string {
  let n = notice ?? "";
  for (const by of ["opened", "save-here"] as const) n = n.split(takenOverLine(by)).join("");
  n = n.split(OWNER_GONE_LINE).join("");
  return n.replace(/ {2,}/g, " ").trim();
}

/**
 * What replacing the experiment keeps, for the confirmations (a lesson, Change…): its runs up to `steps` when
 * this tab saves (`saves`: the store's saving is not null); else what another tab saved, or nothing.
 */
export function keptLine(steps: number, saves: boolean): string {
  if (saves)
    return `This browser keeps its training (runs up to step ${steps}) under Change… → Recent experiments`;
  const tabs = useSavingTabs.getState();
  if (tabs.state !== "saves")
    return tabs.ownerGone
      ? "No tab saves now (the tab that saved was closed or left the page): only what this browser saved before is kept, under Change… → Recent experiments; Save here first keeps this tab's training"
      : "This tab no longer saves (another tab does): only what this browser saved before is kept, under Change… → Recent experiments";
  return "This tab is not saving (see the notice above), so its training is not kept";
}
