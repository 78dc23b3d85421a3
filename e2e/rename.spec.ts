import { expect, test } from "@playwright/test";
import { testLink } from "./links";
import { labReady, openExperiment, reloadAccepting } from "./page";

/**
 * Renaming a run (a teacher comparing "β = 0" with "β = 0.1"): the card, the legend and the link take the name at
 * once, a copy of the link opens with it, a reload keeps it, a fork is named after it; a name another run has is
 * refused with the reason, and Escape keeps the old one. Space types into the name instead of playing.
 */
test("rename a run: card, legend, link, reload and fork keep the name; a taken name is refused", async ({
  page,
  browser,
  storageState,
}) => {
  test.setTimeout(300_000);
  const errors = await openExperiment(page, testLink());
  const title = (id: string) => page.getByTestId(`run-card-${id}`).locator("h3");

  await page.getByTestId("rename-ppo-1").click();
  const field = page.getByTestId("rename-input-ppo-1");
  await expect(field).toBeFocused();
  await field.fill("PPO");
  await field.pressSequentially(" β = 0");
  // Space went into the name: the lab did not start playing.
  await expect(field).toHaveValue("PPO β = 0");
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false");
  await field.press("Enter");
  await expect(title("ppo-1")).toHaveText("PPO β = 0");
  // The keyboard's place is kept: back on the pencil.
  await expect(page.getByTestId("rename-ppo-1")).toBeFocused();
  await expect(page.getByTestId("legend-ppo-1")).toContainText("PPO β = 0");

  // Another run's name is refused, saying why, however its spaces are typed; Escape keeps the old one.
  await page.getByTestId("rename-dpo-1").click();
  await page.getByTestId("rename-input-dpo-1").fill("PPO\u00a0 β  = 0");
  await page.getByTestId("rename-input-dpo-1").press("Enter");
  await expect(page.getByTestId("rename-problem-dpo-1")).toHaveText(
    "Another run is called “PPO β = 0”: pick a name that tells them apart.",
  );
  // So is one that only looks like it (Cyrillic Р, Р, О).
  await page.getByTestId("rename-input-dpo-1").fill("\u0420\u0420\u041e β = 0");
  await page.getByTestId("rename-input-dpo-1").press("Enter");
  await expect(page.getByTestId("rename-problem-dpo-1")).toContainText("looks like “PPO β = 0”");
  await page.getByTestId("rename-input-dpo-1").press("Escape");
  await expect(title("dpo-1")).toHaveText("DPO");
  await expect(page.getByTestId("rename-dpo-1")).toBeFocused();

  // The link names it: opened elsewhere, the same name.
  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).not.toBe("");
  const link = await page.evaluate(() => location.href);
  // Another profile (nothing saved), with the GPU checks kept as every test's (e2e/global-setup.ts).
  const other = await browser.newContext({ storageState });
  const second = await other.newPage();
  await second.goto(link);
  await labReady(second);
  await expect(second.getByTestId("run-card-ppo-1").locator("h3")).toHaveText("PPO β = 0");
  await other.close();

  // One step, then a reload: the saved experiment keeps the name; a fork is named after it.
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("step-ppo-1")).toHaveText("1", { timeout: 120_000 });
  await expect(page.getByTestId("save-state")).toHaveText("saved", { timeout: 60_000 });
  await reloadAccepting(page);
  await labReady(page);
  await expect(title("ppo-1")).toHaveText("PPO β = 0");
  await page.getByTestId("fork-ppo-1").click();
  await expect(page.getByTestId("run-card-ppo-2").locator("h3")).toHaveText(/^PPO β = 0 \(fork @ \d+\)$/);
  expect(errors).toEqual([]);
});
