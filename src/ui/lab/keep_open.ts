/**
 * Keeping the open experiment's runs before something replaces them in this page (the Pipeline's hand-off):
 * whether this page can (it is the tab that saves), why not, and keeping it under Recent experiments.
 */
import { type KeptEntry, keepsCurves } from "../../lab/archive";
import { NOT_KEPT_WHY } from "./experiment_names";
import { notSavingReason, openSaving, recentChanged, saveLatest } from "./saving";
import { useSavingTabs } from "./saving_tabs";
import { tabWords } from "./tab_words";

/** Whether this page saves (storage, and it is the tab that saves), so that keepOpenExperiment can keep runs. */
export function canKeepRuns(): boolean {
  return openSaving() !== null;
}

/**
 * Why this page cannot keep runs ({@link canKeepRuns} false), as a clause for a confirmation: another tab of
 * the lab saves, the session said why (e.g. the experiment open before could not be kept), or no storage.
 */
export function whyNotKept(): string {
  if (useSavingTabs.getState().state === "elsewhere")
    return tabWords("another tab of the lab saves this browser's experiment");
  return notSavingReason() ?? "this browser's storage is unavailable";
}

/**
 * Keep the open experiment under Recent experiments as it is now (its latest curves and checkpoints saved
 * first, at most `waitMs`), before something replaces its runs in this page (the Pipeline's hand-off).
 * Resolves with the kept entry, or null when nothing has trained or there is no storage.
 * @throws Error when keeping fails (quota, IndexedDB), or when it was not kept (it held the least training of a
 *   full list: src/lab/archive.ts toForget; nothing changed): the caller should then not replace the runs.
 */
export async function keepOpenExperiment(waitMs = 8000): Promise<KeptEntry | null> {
  const saving = openSaving();
  if (!saving) return null;
  await saveLatest(saving, waitMs);
  const saved = await saving.persistence.load();
  if (!saved?.runs.some(keepsCurves)) return null;
  const entry = await saving.persistence.archive.keep(saved, await saving.persistence.loadPipeline());
  recentChanged();
  if (!entry.kept)
    throw new Error(`${NOT_KEPT_WHY}: forget one under Change… → Recent experiments to make room`);
  return entry;
}
