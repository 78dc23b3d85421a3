/**
 * A tab that does not save (another tab of the lab took saving over): its training since then is in this page
 * only. A reload, or closing the tab, would lose it without a word, so the browser asks first ("Leave site?")
 * once this tab has trained since it stopped saving; and the notice says so when the tab that saved is gone.
 */

import { askBeforeUnload } from "../../util/leave_prompt";
import { useLab } from "../lab_store";
import { withoutTakenOver } from "./saving_lines";
import { OWNER_GONE_LINE, type TakenBy, takenOverLine, useSavingTabs } from "./saving_tabs";

/** Where `beforeunload` fires (window; tests: a stub). */
type Page = Pick<EventTarget, "addEventListener" | "removeEventListener">;

/**
 * From now on, ask before the page unloads once a run of this tab has trained past where it was now (or a run
 * added since has trained). Returns the function that stops asking (Save here made this tab save again).
 */
export function askBeforeLosingTraining(
  page: Page | null = typeof window === "undefined" ? null : window,
): () => void {
  const then = new Map(Object.values(useLab.getState().runs).map((r) => [r.spec.id, r.step]));
  const trainedSince = () =>
    Object.values(useLab.getState().runs).some((r) => !r.comparison && r.step > (then.get(r.spec.id) ?? 0));
  guarded = trainedSince;
  const ask = (e: Event) => {
    if (trainedSince()) askBeforeUnload(e);
  };
  page?.addEventListener("beforeunload", ask);
  return () => {
    if (guarded === trainedSince) guarded = null;
    page?.removeEventListener("beforeunload", ask);
  };
}

/** The test of the latest {@link askBeforeLosingTraining} still asking (null: none asks). */
let guarded: (() => boolean) | null = null;

/**
 * Whether this tab, not saving, has trained since it stopped saving (or since the lab opened without saving):
 * leaving would lose that training, which no tab keeps ({@link askBeforeLosingTraining}'s test).
 */
export function trainedSinceNotSaving(): boolean {
  return guarded?.() ?? false;
}

/**
 * The notice once the tab that saved left (`gone`) or a tab saves again (`gone` false: the one that left
 * reopened): the line about who saves is swapped, the rest of the notice kept.
 */
export function noticeWhenSavingTabGone(
  notice: string | null,
  gone: boolean,
  by: TakenBy = "opened",
): string {
  const rest = withoutTakenOver(notice);
  const line = gone ? OWNER_GONE_LINE : takenOverLine(by);
  return rest ? `${rest} ${line}` : line;
}

/**
 * While this tab does not save: the saving tab left (`gone`), or a tab saves again (`by`: it opened, or took
 * over with Save here); the notice follows.
 */
export function savingTabGone(gone: boolean, by: TakenBy = "opened"): void {
  const tabs = useSavingTabs.getState();
  if (tabs.state !== "elsewhere" || tabs.ownerGone === gone) return;
  useSavingTabs.setState({ ownerGone: gone });
  useLab.getState().setNotice(noticeWhenSavingTabGone(useLab.getState().notice, gone, by));
}
