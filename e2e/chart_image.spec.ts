import { readFile, writeFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { testLink } from "./links";
import { openExperiment } from "./page";

/**
 * A half-width chart's saved image at 1280×800 (the KL chart, 418 px): its title and settings footer wrap to
 * the image's width instead of being cut off ("…smoothing 0.60 · KL estimato"), on the step and the KL axes; and
 * a knob changed mid-run leaves a marker label that the image draws with its halo under the letters
 * (paint-order stroke: without it the halo covered them). Files: kl.svg, kl-x-kl.png (test output).
 */

/** A download's bytes. */
async function downloaded(page: Page, testId: string): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  return readFile((await download.path()) ?? "");
}

/** The saved SVG drawn in the page: its width, title and footer lines, and each line's right end (px). */
async function readImage(page: Page, svg: string) {
  return page.evaluate((text) => {
    const host = document.createElement("div");
    host.innerHTML = text;
    document.body.append(host);
    const root = host.querySelector("svg") as SVGSVGElement;
    const lines = (sel: string) =>
      [...root.querySelectorAll<SVGTextElement>(`${sel} text`)].map((t) => ({
        text: t.textContent ?? "",
        right: t.getBBox().x + t.getComputedTextLength(),
      }));
    // The file's own styles (parsed apart from the page: the page's charts.css would match .marker-label).
    const file = new DOMParser().parseFromString(text, "image/svg+xml");
    const labels = [...file.querySelectorAll(".image-chart .marker-label")];
    const out = {
      width: Number(root.getAttribute("width")),
      title: lines(".image-title"),
      footer: lines(".image-footer"),
      legend: lines(".image-legend"),
      labels: labels.map((l) => ({ text: l.textContent, style: l.getAttribute("style") ?? "" })),
    };
    host.remove();
    return out;
  }, svg);
}

test("a half-width chart's image keeps its whole title and footer, and its knob-change labels", async ({
  page,
}, testInfo) => {
  test.setTimeout(400_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors = await openExperiment(page, testLink());
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("step-ppo-1")).toHaveText("1", { timeout: 180_000 });
  const beta = page.getByTestId("knob-ppo-1-beta");
  await beta.fill("0.2");
  await beta.press("Enter");
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("step-ppo-1")).toHaveText("2", { timeout: 180_000 });
  const chart = page.getByTestId("chart-kl");
  await expect(chart.locator(".marker-label").first()).toBeVisible({ timeout: 30_000 });
  expect((await chart.boundingBox())?.width).toBeLessThan(500);

  await page.getByTestId("save-image-kl").click();
  const svg = (await downloaded(page, "save-image-kl-svg")).toString("utf8");
  await writeFile(testInfo.outputPath("kl.svg"), svg);
  const image = await readImage(page, svg);
  const footer = image.footer.map((l) => l.text).join(" ");
  expect(footer).toBe(
    `task arithmetic · start model nano · seed 0 · smoothing 0.60 · KL estimator k1 · ${await page.getByTestId("credits-version").innerText()}`,
  );
  expect(image.footer.length).toBeGreaterThan(1);
  expect(image.title.map((l) => l.text).join(" ")).toBe("KL(π ‖ π_ref) (nats/completion) vs step");
  for (const l of [...image.title, ...image.footer, ...image.legend])
    expect(l.right, l.text).toBeLessThanOrEqual(image.width);
  // The knob change's label, drawn with its halo under the letters.
  expect(image.labels.length).toBeGreaterThan(0);
  expect(image.labels[0].text).toContain("0.2");
  expect(image.labels[0].style).toMatch(/paint-order:\s*stroke/);

  // On the KL axis the title is longer ("… vs KL (k1), nats/completion"): whole too, each line within the image.
  await page.getByTestId("x-kl").click();
  await expect(chart).toHaveAttribute("data-x-axis", "kl");
  await page.getByTestId("save-image-kl").click();
  const onKl = await readImage(page, (await downloaded(page, "save-image-kl-svg")).toString("utf8"));
  const title = onKl.title.map((l) => l.text).join(" ");
  expect(title).toMatch(/^KL\(π ‖ π_ref\) \(nats\/completion\) vs KL .*nats\/completion$/);
  for (const l of [...onKl.title, ...onKl.footer]) expect(l.right, l.text).toBeLessThanOrEqual(onKl.width);
  await page.getByTestId("save-image-kl").click();
  await writeFile(testInfo.outputPath("kl-x-kl.png"), await downloaded(page, "save-image-kl-png"));
  await expect(page.getByTestId("lab-notice")).toHaveCount(0);
  expect(errors).toEqual([]);
});
