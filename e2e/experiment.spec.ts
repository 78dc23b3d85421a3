import { expect, type Page, test } from "@playwright/test";
import { DB_NAME } from "../src/lab/db_name";
import { testExperiment } from "../src/lab/defaults";
import { linkOf, testLink } from "./links";
import { labReady, openExperiment } from "./page";

/**
 * The top bar's "Change…" dialog (src/ui/lab/ExperimentDialog.tsx) in the built app on SwiftShader: the task,
 * start model and seed every run shares. A new seed opens the same runs at step 0 on that seed and keeps the
 * trained experiment it replaced (Recent experiments reopens it, resumed from its checkpoints); a start model
 * too small for a task's prompts cannot be picked; a new task opens the same runs on it with its shipped
 * model; a lesson keeps its card on a new seed.
 */

const RUNS = testExperiment().runs.map((r) => r.id);
const runIds = (page: Page) =>
  page
    .locator('[data-testid^="run-card-"]')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-testid")?.replace("run-card-", "")));

test("Change… starts a new experiment: new seed, then a new task, with the same runs", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const pageErrors = await openExperiment(page, testLink());
  await expect(page.getByTestId("seed")).toHaveText("0");

  // One step, so the dialog has something to discard.
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId(`step-${RUNS[0]}`)).not.toHaveText("0", { timeout: 120_000 });

  await page.getByTestId("change-experiment").click();
  const dialog = page.getByTestId("experiment-dialog");
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("experiment-task")).toHaveValue("arithmetic");
  await expect(page.getByTestId("experiment-model")).toHaveValue("nano");
  // Nothing changed yet: nothing to start.
  await expect(page.getByTestId("experiment-apply")).toBeDisabled();
  await expect(page.getByTestId("experiment-unchanged")).toBeVisible();
  // On sentiment nano's 32-token context cannot hold the prompts: it is disabled and the shipped model shown.
  await page.getByTestId("experiment-task").selectOption("sentiment");
  await expect(page.getByTestId("experiment-model")).toHaveValue("sft");
  await expect(page.getByTestId("experiment-model").locator('option[value="nano"]')).toBeDisabled();
  await page.getByTestId("experiment-task").selectOption("arithmetic");
  await page.getByTestId("experiment-model").selectOption("nano");
  // A seed out of range is refused with the field's message.
  await page.getByTestId("experiment-seed").fill("-3");
  await expect(page.getByTestId("experiment-problem")).toHaveText(
    "The seed must be a whole number from 0 to 2,147,483,647.",
  );
  await page.getByTestId("experiment-seed").fill("");
  await expect(page.getByTestId("experiment-problem")).toContainText("whole number");
  await expect(page.getByTestId("experiment-apply")).toBeDisabled();
  await page.getByTestId("experiment-seed").fill("5");
  await expect(page.getByTestId("experiment-discard")).toContainText("up to step 1");
  await page.screenshot({ path: testInfo.outputPath("experiment-dialog.png") });
  await page.getByTestId("experiment-apply").click();

  // The page reloads into the new experiment: seed 5, the same runs, every one at step 0.
  await expect(page.getByTestId("seed")).toHaveText("5", { timeout: 60_000 });
  await labReady(page);
  expect(await runIds(page)).toEqual(RUNS);
  for (const id of RUNS) await expect(page.getByTestId(`step-${id}`)).toHaveText("0");
  await expect(page.getByTestId("model")).toContainText("nano");
  // The keyboard waits on Play, and a screen reader hears what opened.
  await expect(page.getByTestId("play")).toBeFocused();
  await expect(page.getByTestId("page-status")).toHaveText(
    /^Opened Arithmetic · nano \(random init\) · seed 5, with PPO, DPO, GRPO\. Press Play \(or space\) to train\.\u200b?$/,
  );
  // The trained experiment it replaced is kept.
  await expect(page.getByTestId("lab-notice")).toContainText(
    "(Arithmetic · nano (random init) · seed 0: PPO at step 1, DPO at step 1, GRPO at step 1) is kept",
  );

  // Escape cancels without a change.
  await page.getByTestId("change-experiment").click();
  await expect(page.getByTestId("experiment-dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("experiment-dialog")).toHaveCount(0);
  await expect(page.getByTestId("seed")).toHaveText("5");

  // A new task: the same runs on sentiment with its shipped model.
  await page.getByTestId("change-experiment").click();
  await page.getByTestId("experiment-task").selectOption("sentiment");
  await page.getByTestId("experiment-apply").click();
  await expect(page.getByTestId("task")).toHaveText("Sentiment", { timeout: 60_000 });
  await labReady(page);
  await expect(page.getByTestId("model")).toContainText("shipped SFT model");
  await expect(page.getByTestId("seed")).toHaveText("5");
  expect(await runIds(page)).toEqual(RUNS);

  // Recent experiments: seed 0 (trained) is kept, seed 5 (never trained) is not. Open brings seed 0 back,
  // every run resumed at step 1 from its checkpoint, and keeps nothing in its place (this one never trained).
  await page.getByTestId("change-experiment").click();
  const recent = page.getByTestId("recent-entry");
  await expect(recent).toHaveCount(1);
  await expect(recent).toContainText("Arithmetic · nano (random init) · seed 0");
  await expect(page.getByTestId("recent-runs")).toHaveText("PPO at step 1, DPO at step 1, GRPO at step 1");
  await page.screenshot({ path: testInfo.outputPath("recent-experiments.png") });
  await page.getByTestId("recent-open").click();
  await expect(page.getByTestId("seed")).toHaveText("0", { timeout: 60_000 });
  await labReady(page);
  await expect(page.getByTestId("task")).toHaveText("Arithmetic");
  for (const id of RUNS) await expect(page.getByTestId(`step-${id}`)).toHaveText("1");
  await expect(page.getByTestId("lab-notice")).toHaveCount(0);
  await page.getByTestId("change-experiment").click();
  await expect(page.getByTestId("recent-none")).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test("a lesson keeps its card on a new seed", async ({ page }) => {
  test.setTimeout(300_000);
  const lesson = { ...testExperiment(), preset: "grpo-groups" as const };
  await page.goto(`/${linkOf(lesson)}`);
  await labReady(page);
  await expect(page.getByTestId("lesson-card")).toBeVisible();
  await page.getByTestId("change-experiment").click();
  await page.getByTestId("experiment-seed").fill("2");
  await page.getByTestId("experiment-apply").click();
  await expect(page.getByTestId("seed")).toHaveText("2", { timeout: 60_000 });
  await labReady(page);
  await expect(page.getByTestId("lesson-card")).toBeVisible();
});

test("offline, Change… and a lesson keep the open experiment with a notice (leaving would show the browser's 'no internet' page)", async ({
  page,
  context,
}) => {
  const pageErrors = await openExperiment(page, testLink());
  const url = page.url();
  await context.setOffline(true);
  const offline =
    "This browser is offline (opening another experiment loads the page again, which needs the network), so this experiment stays open: try again.";
  await page.getByTestId("change-experiment").click();
  await page.getByTestId("experiment-seed").fill("7");
  await page.getByTestId("experiment-apply").click();
  // The dialog closes onto the notice (it once stayed on "Saving…" with its buttons off).
  await expect(page.getByTestId("experiment-dialog")).toHaveCount(0);
  await expect(page.getByTestId("lab-notice")).toContainText(offline);
  await expect(page.getByTestId("seed")).toHaveText("0");
  await page.getByTestId("lesson-picker").selectOption("kl-estimators");
  await expect(page.getByTestId("lab-notice")).toContainText(offline);
  await expect(page.getByTestId("lesson-card")).toHaveCount(0);
  expect(page.url()).toBe(url);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready");
  await context.setOffline(false);
  expect(pageErrors.map(String)).toEqual([]);
});

test("a pasted link (or Back) that would forget a kept experiment asks first, naming it, and opens only when told", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const pageErrors = await openExperiment(page, testLink());
  await page.getByTestId("step-once").click();
  for (const id of RUNS) await expect(page.getByTestId(`step-${id}`)).toHaveText("1", { timeout: 120_000 });
  const here = page.url();
  // A full list of kept experiments: seeds 1–6 of this experiment, each run at step 20 but seed 3 (PPO at 1).
  const entries = [1, 2, 3, 4, 5, 6].map((seed) => {
    const spec = { ...testExperiment(), seed };
    const runs = spec.runs.map((r, i) => ({
      label: r.label,
      algo: r.algo,
      step: seed === 3 ? (i === 0 ? 1 : 0) : 20,
    }));
    return { id: `kept-${seed}`, spec, runs, pipeline: false, savedAt: seed, signature: `kept-${seed}` };
  });
  await page.evaluate(
    ({ name, entries }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(["archive", "archiveIndex"], "readwrite");
          for (const e of entries) {
            tx.objectStore("archiveIndex").put(e);
            tx.objectStore("archive").put({ id: e.id, session: { spec: e.spec, runs: [] }, pipeline: null });
          }
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { name: DB_NAME, entries },
  );
  // A link pasted into the address bar (a hashchange, as Back or Forward make): keeping this experiment would
  // forget seed 3, so the page stays, its address comes back, and the notice asks.
  await page.evaluate(
    (hash) => {
      location.hash = hash;
    },
    linkOf({ ...testExperiment(), seed: 9 }).slice(1),
  );
  const notice = page.getByTestId("lab-notice");
  await expect(notice).toContainText(
    "The address moved to another experiment (Arithmetic · nano (random init) · seed 9), so this one stays open until you choose. " +
      "If that one opens, this browser keeps its training (runs up to step 1) under Change… → Recent experiments. " +
      "To make room, it will forget the kept experiment with the least training (Arithmetic · nano (random init) · seed 3: PPO at step 1).",
  );
  await expect.poll(() => page.url()).toBe(here);
  await expect(page.getByTestId("seed")).toHaveText("0");
  // Open the link anyway: it opens (saving this one first), and the notice there says what was forgotten.
  await page.getByTestId("leave-ask-open").click();
  await expect(page.getByTestId("seed")).toHaveText("9", { timeout: 60_000 });
  await labReady(page);
  await expect(notice).toContainText(
    "forgot the kept experiment with the least training (Arithmetic · nano (random init) · seed 3: PPO at step 1)",
  );
  expect(pageErrors).toEqual([]);
});
