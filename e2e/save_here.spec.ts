import { expect, type Page, test } from "@playwright/test";
import { testExperiment } from "../src/lab/defaults";
import { linkOf } from "./links";
import { labReady, openExperiment } from "./page";
import { checkpointSteps, waitForCheckpoints } from "./saved";

/**
 * Two tabs of the lab in one browser profile (src/ui/lab/saving_tabs.ts): the tab opened last saves; the first
 * says it does not, trains on, and its "Save here" makes it save again without a reload, so that a reload of
 * it (the other tab closed) resumes its own training instead of the other tab's older save. One PPO run of the
 * test-sized experiment keeps it short on SwiftShader. A tab that saved and was closed leaves the others saying
 * that no tab saves now.
 */

const RUN = "ppo-1";
const link = linkOf({ ...testExperiment(), runs: testExperiment().runs.filter((r) => r.id === RUN) });

/** Step once and wait until the run has reached `n`. */
async function stepTo(page: Page, n: number) {
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId(`step-${RUN}`)).toHaveText(String(n), { timeout: 120_000 });
}

test("Save here: a tab another took saving from saves its own training again, without a reload", async ({
  context,
}, testInfo) => {
  test.setTimeout(300_000);
  const first = await context.newPage();
  const errors = await openExperiment(first, link);
  await stepTo(first, 1);
  await waitForCheckpoints(first, { [RUN]: 1 });

  const second = await context.newPage();
  errors.push(...(await openExperiment(second, link)));
  const state = first.getByTestId("save-state");
  await expect(state).toHaveText("not saving");
  await expect(first.getByTestId("lab-notice")).toContainText(
    "Reloading this tab returns it to what the other tab saved and discards this tab's training since then",
  );
  await expect(first.getByTestId("notice-save-here")).toBeVisible();
  await expect(second.getByTestId("save-state")).toHaveText("saved");

  // Trained here, not saved: the saved checkpoint stays at step 1.
  await stepTo(first, 2);
  await expect(state).toHaveText("not saving");
  expect(await checkpointSteps(first)).toEqual({ [RUN]: 1 });
  await first.screenshot({ path: testInfo.outputPath("not-saving.png") });

  // A third tab opens, saves, and is closed: the first tab says that no tab saves now (it said "the other tab
  // saves" for good, and a reload lost its training without a word), with Save here in the notice.
  const third = await context.newPage();
  errors.push(...(await openExperiment(third, link)));
  await expect(third.getByTestId("save-state")).toHaveText("saved");
  await third.close();
  await expect(first.getByTestId("lab-notice")).toContainText(
    "The tab that saved this browser's experiment was closed, left the page or is reloading: no tab saves now",
  );
  await expect(first.getByTestId("notice-save-here")).toBeVisible();

  await first.getByTestId("save-here").click();
  await expect(first.getByTestId("lab-notice")).toContainText("This tab saves again", { timeout: 60_000 });
  await expect(state).toHaveText("saved");
  expect(await checkpointSteps(first)).toEqual({ [RUN]: 2 });
  await expect(second.getByTestId("save-state")).toHaveText("not saving");
  await expect(second.getByTestId("save-here")).toBeVisible();

  await second.close();
  await first.reload();
  await labReady(first);
  await expect(first.getByTestId(`step-${RUN}`)).toHaveText("2", { timeout: 30_000 });
  await expect(state).toHaveText("saved");
  expect(errors).toEqual([]);
});
