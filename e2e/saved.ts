/**
 * What the page has saved in IndexedDB, read from the page itself: lets a test wait until the autosaver's
 * checkpoints are written before it reloads, instead of sleeping for a guessed time (a loaded machine
 * exports a checkpoint more slowly than an idle one).
 */
import { expect, type Page } from "@playwright/test";
import { DB_NAME } from "../src/lab/db_name";

/** The step of each run's saved checkpoint, by run id (runs without one are absent). */
export function checkpointSteps(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    (name) =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("checkpoints")) return resolve({});
          const all = db.transaction("checkpoints").objectStore("checkpoints").getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            db.close();
            resolve(
              Object.fromEntries(all.result.map((c: { runId: string; step: number }) => [c.runId, c.step])),
            );
          };
        };
      }),
    DB_NAME,
  );
}

/** Wait until every run in `steps` has a saved checkpoint at (at least) its step. */
export async function waitForCheckpoints(page: Page, steps: Record<string, number>, timeout = 120_000) {
  await expect
    .poll(
      async () => {
        const saved = await checkpointSteps(page);
        return Object.entries(steps).filter(([id, s]) => !((saved[id] ?? 0) >= s));
      },
      { timeout, intervals: [500, 1000] },
    )
    .toEqual([]);
}
