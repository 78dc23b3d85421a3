import { readFile, writeFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
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
  expect(download.suggestedFilename()).toBe("ppo-arithmetic-seed0-step1.onnx");
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

/** A download's file name and bytes. */
async function downloaded(page: Page, testId: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  return { name: download.suggestedFilename(), bytes: await readFile((await download.path()) ?? "") };
}

test("a chart saves as SVG and PNG with its visible runs' legend and settings", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  await page.goto(`/${testLink()}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("step-ppo-1")).toHaveText("1", { timeout: 180_000 });
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("step-ppo-1")).toHaveText("2", { timeout: 180_000 });
  // DPO hidden: it stays out of the image and its legend.
  await page.getByTestId("legend-dpo-1").click();
  const chart = page.getByTestId("chart-reward");
  await expect(chart.locator('[data-testid="chart-data-reward"] tr[data-run="dpo-1"]')).toHaveCount(0);
  await expect(chart.locator(".recharts-label").last()).toHaveText("mean score per completion");

  // Keyboard: Enter opens the choices, Escape closes them and leaves the focus on the button.
  const save = page.getByRole("button", { name: "Save Reward chart as image" });
  await save.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("save-image-reward-svg")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("save-image-reward-svg")).toHaveCount(0);
  await expect(save).toBeFocused();

  await save.click();
  const svg = await downloaded(page, "save-image-reward-svg");
  expect(svg.name).toBe("reward-arithmetic-seed0-step2.svg");
  const text = svg.bytes.toString("utf8");
  const drawn = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const curves = [...doc.querySelectorAll(".image-chart .recharts-line-curve")].filter(
      (p) => !p.closest(".raw-line"),
    );
    return {
      root: doc.documentElement.nodeName,
      errors: doc.querySelectorAll("parsererror").length,
      legend: [...doc.querySelectorAll(".image-legend text")].map((t) => t.textContent),
      footer: doc.querySelector(".image-footer")?.textContent,
      points: curves.map((p) => (p.getAttribute("d")?.match(/[ML]/g) ?? []).length).sort(),
      interactive: doc.querySelectorAll("foreignObject, button, .hover-dots, .recharts-tooltip-cursor")
        .length,
    };
  }, text);
  const rows = chart.locator('[data-testid="chart-data-reward"] tr[data-series]');
  const counts = (
    await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute("data-count"))))
  ).sort();
  expect(drawn).toMatchObject({ root: "svg", errors: 0, interactive: 0, points: counts });
  expect(drawn.legend.slice(0, 2)).toEqual(["PPO", "GRPO"]);
  expect(drawn.legend).not.toContain("DPO");
  expect(drawn.footer).toBe(
    `task arithmetic · start model nano · seed 0 · smoothing 0.60 · KL estimator k1 · ${await page.getByTestId("credits-version").innerText()}`,
  );

  const cssWidth = await chart.locator(".chart-plot svg.recharts-surface").evaluate((s) => s.clientWidth);
  for (const theme of ["light", "dark"]) {
    await save.click();
    const png = await downloaded(page, "save-image-reward-png");
    expect(png.name).toBe("reward-arithmetic-seed0-step2.png");
    expect([...png.bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(png.bytes.readUInt32BE(16)).toBeGreaterThanOrEqual(2 * cssWidth);
    await writeFile(testInfo.outputPath(`reward-${theme}.png`), png.bytes);
    await page.getByTestId("theme-toggle").click();
  }
  await writeFile(testInfo.outputPath("reward.svg"), text);
  await expect(page.getByTestId("lab-notice")).toHaveCount(0);
});
