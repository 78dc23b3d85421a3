/**
 * What the lab says when it cannot open this browser's storage, and what it offers about it. In its own tab the
 * browser's reason is named (storage disabled, a private window); embedded in another site's page the browser's
 * error ("The user denied permission to access the database.") blames a user who denied nothing: browsers keep
 * a page embedded by another site from storing, so the lab says that and links to itself in its own tab.
 *
 * It does not ask for storage access (the Storage Access API): in Chromium, document.requestStorageAccess()
 * unlocks cookies only; IndexedDB needs requestStorageAccess({indexedDB: true}) and then the returned handle's
 * `indexedDB` (the global one stays blocked), which idb's openDB (on the global) does not take, and the grant
 * lasts only as long as the document (a reload would have to ask again).
 */
import { errorMessage as message } from "../../util/errors";
import { isEmbedded } from "./embedded";

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
