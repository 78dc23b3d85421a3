import { expect, type Locator, type Page, test } from "@playwright/test";
import { testLink } from "./links";
import { openExperiment } from "./page";

/**
 * The chart's pinned hover card: after two steps, a click on the entropy chart pins its hover card at the last
 * step; the card stays when the mouse moves away, takes the mouse (its text selectable), writes each run's value
 * at full precision — the same text as the chart's data table (and so the CSV) — and × or Escape unpins it;
 * an Escape that closes the explain dialog does not.
 * Then the KL and entropy cards pinned side by side stay inside their half-width figures, each × reachable, and
 * still inside after a resize. No existing spec hovered a chart's plot. Screenshots: the pinned card, two
 * pinned cards, the same after the resize.
 */
/**
 * Click at `at` in `chart` until its card is pinned: recharts reads the x under the mouse from its last
 * mousemove, which on a loaded machine may land after a click made at once (a click off the data pins nothing).
 */
async function pinAt(page: Page, chart: Locator, at: { x: number; y: number }) {
  await expect(async () => {
    await page.mouse.move(at.x - 1, at.y);
    await page.mouse.move(at.x, at.y);
    await page.mouse.click(at.x, at.y);
    await expect(chart.getByTestId("chart-tip-pinned")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

test("a click pins the chart's hover card: it stays, its numbers are exact, × and Escape unpin it", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const errors = await openExperiment(page, testLink());
  for (const n of ["1", "2"]) {
    await page.getByTestId("step-once").click();
    await expect(page.getByTestId("step-ppo-1")).toHaveText(n, { timeout: 300_000 });
  }
  // Entropy: a value with many digits (the reward of a nano model is often exactly 0).
  const chart = page.getByTestId("chart-entropy");
  const row = chart.locator('tr[data-series][data-run="ppo-1"]');
  await expect(row).toHaveAttribute("data-steps", "[1,2]", { timeout: 60_000 });
  await chart.scrollIntoViewIfNeeded();
  const grid = await chart.locator(".recharts-cartesian-grid").boundingBox();
  if (!grid) throw new Error("no plot");
  const at = { x: grid.x + grid.width - 3, y: grid.y + grid.height / 2 };

  // Hovering (unpinned) shows the card at 3 significant digits; a click pins it at the last step.
  await page.mouse.move(at.x, at.y);
  await expect(chart.locator(".recharts-tooltip-wrapper .chart-tip")).toBeVisible();
  await page.mouse.click(at.x, at.y);
  const pinned = chart.getByTestId("chart-tip-pinned");
  await expect(pinned).toBeVisible();
  await expect(pinned.locator(".chart-tip-x")).toHaveText("step 2");
  // The mouse moves away (to the chart's start, then off it): the pinned card stays where it was.
  const box = await pinned.boundingBox();
  await page.mouse.move(grid.x + 3, at.y);
  await page.mouse.move(0, 0);
  await expect(pinned).toBeVisible();
  expect(await pinned.boundingBox()).toEqual(box);
  await expect(pinned.locator(".chart-tip-x")).toHaveText("step 2");
  // It takes the mouse and its text can be selected (the hover card lets the mouse through).
  expect(
    await pinned.evaluate((el) => [getComputedStyle(el).pointerEvents, getComputedStyle(el).userSelect]),
  ).toEqual(["auto", "text"]);
  // Its value: the step-2 value at full precision, the text the data table (and the CSV) writes.
  const value = pinned.locator('[data-testid="chart-tip-value"][data-run="ppo-1"]');
  const raws = JSON.parse((await row.getAttribute("data-raw")) ?? "[]") as number[];
  const smooth = await row.getAttribute("data-last-smooth");
  const tr = value.locator("xpath=..");
  // Smoothed charts show the smoothed value (with "raw …" beside it where it differs); raw ones the raw value.
  // (The number, without the unit after it.)
  const shown = (await value.textContent())?.trim().split(" ")[0];
  expect(shown?.replace(/^-?0?\.?0*/, "").replace(".", "").length).toBeGreaterThan(3); // more than sig(…, 3)
  const rawCell = (await tr.locator(".tip-raw").textContent())?.trim();
  expect(shown).toBe(rawCell ? smooth : String(raws[1]));
  if (rawCell) expect(rawCell).toBe(`raw ${String(raws[1])}`);
  console.log(`pinned: ${shown} (${rawCell || "no raw"}); table: raw ${raws[1]}, smooth ${smooth}`);
  await page.screenshot({ path: "test-results/chart-pin.png" });
  // × unpins; a new click pins again, and Escape unpins.
  await pinned.getByTestId("chart-tip-close").click();
  await expect(pinned).toHaveCount(0);
  await pinAt(page, chart, at);
  await page.keyboard.press("Escape");
  await expect(pinned).toHaveCount(0);
  // Pinned again: open the explain dialog, Escape closes it, the pin stays (that Escape was the dialog's).
  await pinAt(page, chart, at);
  await page.getByTestId("explain-ppo-1").click();
  const dialog = page.getByTestId("explain-panel");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(pinned).toBeVisible();
  // Focus back on the "?" button (outside the chart): Escape is not the chart's either.
  await page.keyboard.press("Escape");
  await expect(pinned).toBeVisible();
  // Focus in the chart again (a click on its plot, at the pinned x): Escape unpins.
  await page.mouse.click(at.x, at.y);
  await page.keyboard.press("Escape");
  await expect(pinned).toHaveCount(0);

  // Half-width charts at 1280×800 (the KL and entropy charts, side by side), each clicked two-thirds across:
  // each card lies inside its figure (the KL card was 707 px wide at x = −51 over its 418 px chart), its × is
  // what a click at its centre reaches (the entropy card covered the KL card's ×); after a resize to 1024×768
  // the cards are still inside their figures.
  const figures = [page.getByTestId("chart-kl"), chart];
  for (const f of figures) {
    const plot = await f.locator(".recharts-cartesian-grid").boundingBox();
    if (!plot) throw new Error("no plot");
    await pinAt(page, f, { x: plot.x + (plot.width * 2) / 3, y: plot.y + plot.height / 2 });
  }
  await page.mouse.move(0, 0);
  const inside = async () => {
    for (const f of figures) {
      const outer = await f.boundingBox();
      const card = await f.getByTestId("chart-tip-pinned").boundingBox();
      if (!outer || !card) throw new Error("no figure or card");
      expect(card.x).toBeGreaterThanOrEqual(outer.x - 0.5);
      expect(card.x + card.width).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
    }
  };
  await inside();
  for (const f of figures) {
    const close = f.getByTestId("chart-tip-close");
    const c = await close.boundingBox();
    if (!c) throw new Error("no ×");
    const top = await close.evaluate(
      (el, at) => {
        const hit = document.elementFromPoint(at.x, at.y);
        return hit === el || el.contains(hit);
      },
      { x: c.x + c.width / 2, y: c.y + c.height / 2 },
    );
    expect(top, "the × is the top element at its centre").toBe(true);
  }
  await page.screenshot({ path: "test-results/chart-pin-two.png" });
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(page.getByTestId("chart-kl").getByTestId("chart-tip-pinned")).toBeVisible();
  await expect(async () => inside()).toPass({ timeout: 10_000 });
  await page.screenshot({ path: "test-results/chart-pin-resized.png" });
  expect(errors).toEqual([]);
});
