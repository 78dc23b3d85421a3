/**
 * What the lab says when it cannot open this browser's storage, and what it offers about it. In its own tab the
 * browser's reason is named (storage disabled, a private window); embedded in another site's page the browser's
 * error ("The user denied permission to access the database.") blames a user who denied nothing: browsers keep
 * a page embedded by another site from storing, so the lab says that, links to itself in its own tab, and asks
 * for storage access where the browser can grant it (document.requestStorageAccess, the Storage Access API).
 */
import { type LabPersistence, openLabPersistence } from "../../lab/persist";
import { errorMessage as message } from "../../util/errors";
import { useLab } from "../lab_store";
import { isEmbedded } from "./embedded";
import { usePipelineStore } from "./pipeline_store";

/** The notice's line when the lab is embedded and storage cannot be opened. */
export const EMBEDDED_NO_STORAGE_LINE =
  "This lab is embedded in another site's page, and the browser keeps embedded pages from saving. Runs will not survive a reload.";

/**
 * The notice's line when opening storage threw `error`: embedded ({@link isEmbedded} by default), the
 * {@link EMBEDDED_NO_STORAGE_LINE}; in its own tab, the browser's reason in parentheses.
 */
export function noStorageLine(error: unknown, embedded = isEmbedded()): string {
  if (embedded) return EMBEDDED_NO_STORAGE_LINE;
  return `Runs will not survive a reload: this browser's storage is unavailable (${message(error)}).`;
}

/** The Storage Access API where the browser has it (Chromium 119+, Firefox, Safari), else null. */
function storageAccess(): { has: () => Promise<boolean>; request: () => Promise<void> } | null {
  const doc = typeof document === "undefined" ? null : document;
  if (!doc || typeof doc.requestStorageAccess !== "function" || typeof doc.hasStorageAccess !== "function")
    return null;
  return { has: () => doc.hasStorageAccess(), request: () => doc.requestStorageAccess() };
}

/**
 * Whether to offer "Let it save": the browser has the Storage Access API and this frame has no access yet.
 * Resolves false on any error.
 */
export async function canAskForStorage(): Promise<boolean> {
  const api = storageAccess();
  if (!api) return false;
  return api.has().then(
    (has) => !has,
    () => false,
  );
}

/** Whether the page holds training a reload would lose (a run's step, a trained Pipeline stage). */
function trainedHere(): boolean {
  const pipeline = usePipelineStore.getState();
  return (
    Object.values(useLab.getState().runs).some((r) => r.step > 0) ||
    pipeline.sft.status !== "idle" ||
    pipeline.rm.status !== "idle"
  );
}

/**
 * "Let it save", on the click (the browser wants the user's gesture): ask the browser for storage access, then
 * check that storage opens (`open`: openLabPersistence by default). Nothing trained yet: reload (`reload`), so
 * that the lab opens its experiment (the address carries it) with saving on. Something trained: nothing is
 * reloaded (that would lose it); the line says to reload when ready. Resolves with the line to show (null when
 * reloading). Never throws.
 */
export async function letItSave(
  open: () => Promise<LabPersistence> = openLabPersistence,
  reload: () => void = () => location.reload(),
): Promise<string | null> {
  const api = storageAccess();
  if (!api) return "This browser cannot let an embedded page save: open the lab in its own tab to keep runs.";
  try {
    await api.request();
  } catch (e) {
    return `The browser did not let the lab save (${message(e)}): open it in its own tab to keep runs.`;
  }
  try {
    (await open()).close();
  } catch (e) {
    return `The browser allowed it, but still keeps this page's storage closed (${message(e)}): open the lab in its own tab to keep runs.`;
  }
  if (!trainedHere()) {
    reload();
    return null;
  }
  return "The browser lets the lab save now: it starts saving after a reload, which would lose the runs trained so far (export the ones to keep first).";
}
