import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { testLink } from "./links";

test("a run's win rate over the start model shows a share with its confidence interval", async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto(`/${testLink()}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
  // At step 0 the run is the start model: nothing to compare yet.
  await expect(page.getByTestId("winrate-button-grpo-1")).toBeDisabled();
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("step-grpo-1")).toHaveText("1", { timeout: 180_000 });
  await page.getByTestId("winrate-button-grpo-1").click();
  const result = page.getByTestId("winrate-result-grpo-1");
  await expect(result).toBeVisible({ timeout: 180_000 });
  const num = async (attr: string) => Number(await result.getAttribute(attr));
  const [w, lo, hi, n] = [
    await num("data-win-rate"),
    await num("data-ci-low"),
    await num("data-ci-high"),
    await num("data-n"),
  ];
  expect(n).toBe(64);
  expect(w).toBeGreaterThanOrEqual(0);
  expect(w).toBeLessThanOrEqual(1);
  expect(lo).toBeLessThanOrEqual(w);
  expect(hi).toBeGreaterThanOrEqual(w);
  // The text shows the same numbers, as percentages.
  await expect(result).toContainText(`${(100 * w).toFixed(0)} %`);
  await expect(result).toContainText(`${n} prompts · step 1`);
  expect(await result.getAttribute("data-vs")).toBe("start");

  // Against another run: PPO (also at step 1) is the opponent, named with its step.
  await page.getByTestId("winrate-vs-grpo-1").selectOption("ppo-1");
  await expect(page.getByTestId("winrate-button-grpo-1")).toHaveText("Win rate vs PPO");
  await page.getByTestId("winrate-button-grpo-1").click();
  await expect(result).toHaveAttribute("data-vs", "ppo-1", { timeout: 180_000 });
  const [w2, lo2, hi2] = [await num("data-win-rate"), await num("data-ci-low"), await num("data-ci-high")];
  expect(lo2 <= w2 && w2 <= hi2 && w2 >= 0 && w2 <= 1, `${w2} [${lo2}, ${hi2}]`).toBe(true);
  await expect(result).toContainText(`${(100 * w2).toFixed(0)} %`);
  await expect(result).toContainText("64 prompts · step 1 vs PPO at step 1");
});

test("a run's policy exports as ONNX from its menu", async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto(`/${testLink()}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("step-ppo-1")).toHaveText("1", { timeout: 180_000 });
  await page.getByTestId("export-ppo-1").click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-ppo-1-onnx").click(),
  ]);
  expect(download.suggestedFilename()).toBe("ppo-arithmetic-step1.onnx");
  const bytes = await readFile((await download.path()) ?? "");
  const text = bytes.toString("latin1");
  // An ONNX ModelProto of the nano policy: its graph name, the output, the metadata, and the weights
  // (nano: ~25k parameters, 4 bytes each, the tied embedding stored twice).
  expect(text).toContain("rlhf_playground_policy");
  expect(text).toContain("logits");
  expect(text).toContain("max_length");
  expect(bytes.length).toBeGreaterThan(50_000);
  await expect(page.getByTestId("lab-notice")).toHaveCount(0);
});
