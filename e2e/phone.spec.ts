import { expect, type Page, test } from "@playwright/test";
import { testLink } from "./links";
import { openExperiment } from "./page";

/**
 * A student on a phone (390 × 844, touch, a German browser, reduced motion asked for): nothing is wider than the
 * screen — at load, after a step (the Inspect panel's completion menu is as wide as its longest option), with
 * the Change… dialog open; the rename pencil is a finger-sized target; German "1.000" in Stop at is named as a
 * thousand, not read as 1; a training run's status dot does not pulse.
 */
test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  locale: "de-DE",
  reducedMotion: "reduce",
});

/** The page's width beyond the screen's (px), and the elements that stick out of it (not out of a scroller). */
async function overflow(page: Page): Promise<{ extra: number; wide: string[] }> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= vw + 1) return false;
        // Inside a box that scrolls or clips sideways (the run strip's cards): not the page's width.
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement)
          if (getComputedStyle(p).overflowX !== "visible") return false;
        return true;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
      .slice(0, 8);
    return { extra: document.documentElement.scrollWidth - vw, wide };
  });
}

test("on a phone: no sideways scroll, finger-sized rename, German thousands named, no pulsing", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openExperiment(page, testLink());
  expect(await overflow(page)).toEqual({ extra: 0, wide: [] });
  const pencil = await page.getByTestId("rename-ppo-1").boundingBox();
  expect(pencil?.width).toBeGreaterThanOrEqual(24);
  expect(pencil?.height).toBeGreaterThanOrEqual(24);
  await expect(page.getByTestId("rename-ppo-1")).toHaveCSS("opacity", "1");

  // "1.000" is a thousand in German: refused, naming it, rather than stopping after step 1.
  const stopAt = page.getByTestId("stop-at");
  await stopAt.fill("1.000");
  await stopAt.press("Enter");
  await expect(page.locator("#stop-at-problem")).toHaveText(
    "Stop at must be a whole number without separators: 1000",
  );
  await stopAt.fill("2");
  await stopAt.press("Enter");
  await expect(page.locator("#stop-at-problem")).toHaveCount(0);

  // Training: the running status shows without its pulse.
  await page.getByTestId("play").tap();
  const running = page.locator(".status-running").first();
  await expect(running).toBeVisible({ timeout: 120_000 });
  expect(await running.evaluate((el) => getComputedStyle(el, "::before").animationName)).toBe("none");
  // Stop at 2 pauses the lab by itself.
  for (const id of ["ppo-1", "dpo-1", "grpo-1"])
    await expect(page.getByTestId(`step-${id}`)).toHaveText("2", { timeout: 240_000 });
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false", { timeout: 60_000 });

  // After steps the Inspect panel lists completions by their text: its menu stays inside the screen.
  const completion = page.locator(".inspect-pager select").first();
  await expect(completion).toBeVisible({ timeout: 60_000 });
  await completion.scrollIntoViewIfNeeded();
  expect(await overflow(page)).toEqual({ extra: 0, wide: [] });

  await page.getByTestId("change-experiment").tap();
  const dialog = page.getByTestId("experiment-dialog");
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  expect(await overflow(page)).toEqual({ extra: 0, wide: [] });
  await page.screenshot({ path: "test-results/phone.png" });
  expect(errors).toEqual([]);
});
