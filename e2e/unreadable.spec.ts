import { expect, type Page, test } from "@playwright/test";
import { DB_NAME } from "../src/lab/db_name";
import { testExperiment } from "../src/lab/defaults";
import { testLink } from "./links";
import { labReady, openExperiment, reloadAccepting } from "./page";
import { waitForCheckpoints } from "./saved";

/**
 * An experiment record this version of the lab cannot read (a newer version's, or a damaged one): the page
 * says so and does not save over it, on every visit, until the user discards it (asked first) with the
 * notice's "Discard them"; then the page saves at once, and a reload resumes its runs where they were.
 */

const RUNS = testExperiment().runs.map((r) => r.id);

/** Replace the saved experiment record with one that is no experiment. */
const breakSavedExperiment = (page: Page) =>
  page.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction("meta", "readwrite");
          tx.objectStore("meta").put(
            { spec: { task: "sentiment", runs: "from the future" }, savedAt: 0 },
            "experiment",
          );
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    DB_NAME,
  );

test("unreadable saved runs: not saved over until discarded; after Discard them, the page saves and a reload resumes", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const errors = await openExperiment(page, testLink());
  await page.getByTestId("step-once").click();
  for (const id of RUNS) await expect(page.getByTestId(`step-${id}`)).toHaveText("1", { timeout: 240_000 });
  await breakSavedExperiment(page);

  await reloadAccepting(page);
  await labReady(page);
  const notice = page.getByTestId("lab-notice");
  await expect(notice).toContainText("The runs saved in this browser could not be read");
  await expect(notice).toContainText("so this page does not save over them");
  for (const id of RUNS) await expect(page.getByTestId(`step-${id}`)).toHaveText("0");
  // A "no" keeps them, and the page still does not save.
  page.removeAllListeners("dialog"); // reloadAccepting's, unused when the page did not ask before leaving
  page.once("dialog", (d) => void d.dismiss());
  await page.getByTestId("notice-discard-saved").click();
  await expect(notice).toContainText("so this page does not save over them");

  await page.getByTestId("step-once").click();
  for (const id of RUNS) await expect(page.getByTestId(`step-${id}`)).toHaveText("1", { timeout: 240_000 });
  await expect(page.getByTestId("save-state")).toHaveText("not saved");
  await expect(page.getByTestId("discard-saved")).toBeVisible();
  await page.screenshot({ path: "test-results/unreadable-notice.png" });
  let question = "";
  page.once("dialog", (d) => {
    question = d.message();
    void d.accept();
  });
  await page.getByTestId("notice-discard-saved").click();
  await expect(notice).toContainText("were discarded: this page saves its runs from now on");
  expect(question).toMatch(/cannot be read by this version of the lab .*Discard them for good/);
  await expect(notice).not.toContainText("does not save over them");
  await expect(page.getByTestId("notice-discard-saved")).toHaveCount(0);
  await expect(page.getByTestId("discard-saved")).toHaveCount(0);
  await waitForCheckpoints(page, Object.fromEntries(RUNS.map((id) => [id, 1])));

  await reloadAccepting(page);
  await labReady(page);
  for (const id of RUNS) await expect(page.getByTestId(`step-${id}`)).toHaveText("1", { timeout: 60_000 });
  await expect(page.getByTestId("lab-notice").filter({ hasText: "could not be read" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/unreadable-discarded.png" });
  expect(errors.map((e) => e.message)).toEqual([]);
});
