/**
 * Opening this browser's storage for the lab (./session.ts): an open that never answers is given up on, and
 * what another tab saved while this page started is read again; the saved runs it could not read are named.
 */
import { type LabPersistence, openLabPersistence, type SavedSession } from "../../lab/persist";
import { quoted } from "../../util/quote";
import { withTimeout } from "../../util/settle";

/** How long opening this browser's storage may take before the lab starts without it (ms). */
export const STORAGE_OPEN_MS = 10_000;

/**
 * Open the lab's storage (`open`: openLabPersistence by default). An open that never answers (seen in Safari 14)
 * must not hold the lab at "starting" for ever: after {@link STORAGE_OPEN_MS} it rejects, and a connection that
 * comes later is closed.
 * @throws Error "the browser's storage did not answer within 10 s", or whatever the open throws.
 */
export function openStorage(
  open: () => Promise<LabPersistence> = openLabPersistence,
): Promise<LabPersistence> {
  const opening = open();
  return withTimeout(opening, STORAGE_OPEN_MS, "the browser's storage did not answer").catch((e) => {
    void opening.then(
      (p) => p.close(),
      () => {},
    );
    throw e;
  });
}

/**
 * The session as storage holds it now when another tab wrote since `firstRead` (LabPersistence.lastWrite when it
 * was read), else null: a pause's last checkpoint, or a 5-s history flush, while this page started its worker
 * (a reviewer's two tabs: the second resumed from its read at step 5 and overwrote the first's checkpoint at
 * step 15, keeping no copy). Nothing changed: nothing is read but the writer's mark.
 */
export async function readIfWritten(p: LabPersistence, firstRead: string): Promise<SavedSession | null> {
  const now = await p.lastWrite().catch(() => firstRead);
  return now === firstRead ? null : p.load().catch(() => null);
}

/**
 * The notice's line on saved records the lab could not read (SavedSession.unreadable: runs that start over;
 * leftOut: comparison runs dropped; notRuns: run-list entries that are no run), or null when there are none.
 */
export function unreadableLine(
  unreadable: readonly string[] | undefined,
  leftOut: readonly string[] = [],
  notRuns: readonly string[] = [],
): string | null {
  const names = (ids: readonly string[]) =>
    ids
      .slice(0, 3)
      .map((id) => quoted(id))
      .join(", ") + (ids.length > 3 ? ", …" : "");
  const lines: string[] = [];
  if (unreadable?.length) {
    const one = unreadable.length === 1;
    lines.push(
      `${one ? "A saved run" : `${unreadable.length} saved runs`} could not be read (${names(unreadable)}) and ` +
        `${one ? "starts" : "start"} over (what was saved of ${one ? "it" : "them"} is replaced).`,
    );
  }
  if (leftOut.length) {
    const one = leftOut.length === 1;
    lines.push(
      `${one ? "A run imported for comparison" : `${leftOut.length} runs imported for comparison`} could not be ` +
        `read (${names(leftOut)}) and ${one ? "is" : "are"} left out: import ${one ? "it" : "them"} again to see ${one ? "it" : "them"}.`,
    );
  }
  if (notRuns.length) {
    const one = notRuns.length === 1;
    lines.push(
      `${one ? "An entry" : `${notRuns.length} entries`} of the saved run list ${one ? "is" : "are"} no run ` +
        `(${names(notRuns)}) and ${one ? "is" : "are"} left out.`,
    );
  }
  return lines.length ? lines.join(" ") : null;
}
