import { expect, type Locator, type Page, test } from "@playwright/test";
import { testExperiment } from "../src/lab/defaults";
import { testLink } from "./links";
import { labReady, openExperiment, reloadAccepting } from "./page";

/**
 * Keyboard use of the top bar and the run cards, on the test-sized experiment (Play runs only for a moment):
 * browsing "+ Add run…" and "Lessons…" with the arrow keys acts on nothing; the Export menu opened from the
 * keyboard takes the focus, ↑/↓ move in it and Tab leaves it closed; space on a confirmation card opened by a
 * click confirms (it does not play); space after a mouse click on a legend chip plays/pauses (it does not toggle
 * the chip again), while a chip reached with Tab keeps space for itself; removing a run from the keyboard keeps
 * Tab in its confirmation card and leaves the focus on the next run's card.
 */

const RUNS = testExperiment().runs.map((r) => r.id);

/** Types `value` into a number field, then space plays and space pauses; the value stays, the field keeps focus. */
async function spacePlaysIn(page: Page, field: Locator, value: string) {
  await field.fill(value);
  for (const playing of ["true", "false"]) {
    await page.keyboard.press("Space");
    await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", playing);
  }
  await expect(field).toHaveValue(value);
  await expect(field).toBeFocused();
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));

test("arrow keys browse the action menus, Export keeps the focus, space after a click plays", async ({
  page,
}) => {
  const errors = await openExperiment(page, testLink());
  const url = page.url();

  // ↓ on a closed "+ Add run…" or "Lessons…" used to pick the next option at once.
  await page.getByTestId("add-run").focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Escape");
  await page.getByTestId("lesson-picker").focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Escape");
  await page.waitForTimeout(500);
  await expect(page.locator('[data-testid^="run-card-"]')).toHaveCount(RUNS.length);
  expect(page.url()).toBe(url);

  // ↑ in a number box steps from what is typed there, not yet applied (0.3 → 0.4), not from the run's 0.05
  // (→ 0.06); a value typed another way is written as the card writes it.
  const typed = page.getByTestId("knob-ppo-1-beta");
  await typed.fill("0.3");
  await typed.press("ArrowUp");
  await expect(typed).toHaveValue("0.4");
  await typed.fill(".0004");
  await typed.press("Enter");
  await expect(typed).toHaveValue("4e-4");
  await typed.fill("0.05");
  await typed.press("Enter");
  await expect(typed).toHaveValue("0.05");

  // The Export menu (drawn at the end of the page) takes the focus when opened from the keyboard.
  await page.getByTestId("export-ppo-1").focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => focused(page)).toBe("export-ppo-1-csv");
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => focused(page)).toBe("export-ppo-1-json");
  await page.keyboard.press("Tab"); // leaves the list from its button, which comes before Duplicate
  await expect(page.getByTestId("export-ppo-1-csv")).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe("fork-ppo-1");

  // A legend chip reached with Tab keeps space for itself (it hides and shows its run)…
  const chip = page.getByTestId("legend-dpo-1");
  await chip.focus();
  await page.keyboard.press("Space");
  await expect(chip).toHaveAttribute("aria-pressed", "false");
  await page.keyboard.press("Space");
  await expect(chip).toHaveAttribute("aria-pressed", "true");
  // …but after a mouse click on it, space plays and pauses.
  await chip.click();
  await expect(chip).toHaveAttribute("aria-pressed", "false");
  await page.keyboard.press("Space");
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Space");
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false");
  await expect(chip).toHaveAttribute("aria-pressed", "false");

  // In a knob's number field space plays and pauses too (no number holds a space; the typed value applies); so
  // does a Pipeline number field (it used to type a space into the number).
  await spacePlaysIn(page, page.getByTestId("knob-ppo-1-beta"), "0.07");
  await page.getByTestId("pipeline").locator("summary").click();
  await spacePlaysIn(page, page.getByTestId("pipeline-sftSteps"), "45");
  await page.getByTestId("pipeline").locator("summary").click();

  // A confirmation card opened by a click takes the focus: space there confirms, it does not play.
  await expect(page.getByTestId("step-once")).toBeEnabled({ timeout: 120_000 });
  await page.getByTestId("step-once").click();
  for (const id of RUNS)
    await expect(page.getByTestId(`step-${id}`)).not.toHaveText("0", { timeout: 120_000 });

  // Removing a trained run from the keyboard: Tab stays in its confirmation card (drawn at the end of the
  // page), and the focus then lands on the card that takes the removed run's place, not on the page's body.
  const gone = RUNS[1];
  await page.getByTestId(`remove-${gone}`).focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => focused(page)).toBe(`remove-${gone}-confirm`);
  await page.keyboard.press("Tab");
  await expect.poll(() => focused(page)).toBe(`remove-${gone}-cancel`);
  await page.keyboard.press("Tab");
  await expect.poll(() => focused(page)).toBe(`remove-${gone}-confirm`);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId(`run-card-${gone}`)).toHaveCount(0, { timeout: 120_000 });
  await expect.poll(() => focused(page)).toBe(`run-card-${RUNS[2]}`);
  const kept = RUNS.filter((id) => id !== gone);

  await page.getByTestId("reset").click();
  await expect.poll(() => focused(page)).toBe("reset-confirm");
  await page.keyboard.press("Space");
  for (const id of kept) await expect(page.getByTestId(`step-${id}`)).toHaveText("0");
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false");

  // A value typed and applied is in the link a reload opens: once the worker has taken it, the link names it at
  // once (it was rewritten 300 ms later, and a reload in between came back with the old β; test/ui/url_sync).
  const last = page.getByTestId(`knob-${RUNS[0]}-beta`);
  const before = page.url();
  await last.fill("0.09");
  await last.press("Enter");
  await expect.poll(() => page.url(), { timeout: 30_000, intervals: [20] }).not.toBe(before);
  await page.reload();
  await labReady(page);
  await expect(page.getByTestId(`knob-${RUNS[0]}-beta`)).toHaveValue("0.09");

  // Playing with steps past the last saved checkpoint, a reload asks first (the runs would come back there).
  await page.getByTestId("play").click();
  await expect(page.getByTestId(`step-${RUNS[0]}`)).not.toHaveText("0", { timeout: 120_000 });
  expect(await reloadAccepting(page)).toEqual(["beforeunload"]);
  await labReady(page);
  expect(errors).toEqual([]);
});

/** Where the charts, the run cards and the samples are: the top of each box and their order in the page. */
async function layout(page: Page) {
  return page.evaluate(() => {
    const ids = ["lab-charts", "lab-runs", "lab-samples"] as const;
    const el = ids.map((id) => document.getElementById(id) as HTMLElement);
    const box = el.map((e) => e.getBoundingClientRect());
    const before = (a: number, b: number) =>
      Boolean(el[a].compareDocumentPosition(el[b]) & Node.DOCUMENT_POSITION_FOLLOWING);
    return {
      top: { charts: box[0].top, runs: box[1].top, samples: box[2].top },
      left: { charts: box[0].left, runs: box[1].left },
      chartsBeforeRuns: before(0, 1),
      runsBeforeSamples: before(1, 2),
    };
  });
}

test("one column (a projector or a zoomed page): Tab meets the charts, then the run cards, as the eye does", async ({
  page,
}) => {
  await page.setViewportSize({ width: 853, height: 533 });
  const errors = await openExperiment(page, testLink());
  const narrow = await layout(page);
  console.log(`853 × 533: ${JSON.stringify(narrow)}`);
  expect(narrow.top.charts).toBeLessThan(narrow.top.runs);
  expect(narrow.top.runs).toBeLessThan(narrow.top.samples);
  expect(narrow.chartsBeforeRuns, "charts before the run cards in the page").toBe(true);
  expect(narrow.runsBeforeSamples).toBe(true);
  const skips = page.getByTestId("skip-links").locator("button");
  await expect(skips).toHaveText(["Skip to charts", "Skip to runs", "Skip to samples"]);
  // The strip of run cards does not fit: a bar says which cards are in view, and › / ‹ scroll a card at a time.
  const range = page.getByTestId("run-strip-range");
  const strip = page.getByTestId("run-column");
  const lastCard = page.getByTestId(`run-card-${RUNS[RUNS.length - 1]}`);
  const rightEdge = async () => {
    const [c, s] = await Promise.all([lastCard.boundingBox(), strip.boundingBox()]);
    return (c?.x ?? 0) + (c?.width ?? 0) - ((s?.x ?? 0) + (s?.width ?? 0));
  };
  await expect(range).toHaveText(`1–2`);
  await expect(page.getByTestId("run-strip-bar")).toContainText(`of ${RUNS.length} in view`);
  await expect(strip).toHaveAttribute("data-more", "right");
  expect(await rightEdge(), "the last card is cut at the strip's right edge").toBeGreaterThan(20);
  await expect(page.getByTestId("run-strip-prev")).toBeDisabled();
  await page.getByTestId("run-strip-next").click();
  await expect(range).toHaveText(`2–3`);
  await expect(strip).toHaveAttribute("data-more", "left");
  await expect.poll(rightEdge, { message: "› brings the last card wholly into view" }).toBeLessThanOrEqual(1);
  await expect(page.getByTestId("run-strip-next")).toBeDisabled();
  await page.getByTestId("run-strip-prev").click();
  await expect(range).toHaveText(`1–2`);
  // Tab from the last control of the charts goes to the first run card, not to the samples.
  const chip = page.getByTestId(`legend-${RUNS[RUNS.length - 1]}`);
  await chip.focus();
  let inRuns = false;
  for (let i = 0; i < 40 && !inRuns; i++) {
    await page.keyboard.press("Tab");
    const where = await page.evaluate(() => {
      const a = document.activeElement;
      return a?.closest("#lab-runs") ? "runs" : a?.closest("#lab-samples") ? "samples" : "charts";
    });
    expect(where, `Tab ${i + 1} after the last legend chip`).not.toBe("samples");
    inRuns = where === "runs";
  }
  expect(inRuns, "Tab reaches the run cards").toBe(true);

  // Crossing 980 px moves the panels; it does not mount them again: the same elements (tagged here), an open
  // <details>, a half-typed knob value and the focus in it all stay.
  await page.evaluate(() => {
    for (const id of ["lab-charts", "lab-runs", "lab-samples"])
      (document.getElementById(id) as HTMLElement & { tagged?: boolean }).tagged = true;
  });
  const card = page.getByTestId(`run-card-${RUNS[0]}`);
  await card.locator("details.knobs-more > summary").click();
  const beta = page.getByTestId(`knob-${RUNS[0]}-beta`);
  await beta.fill("0.07");
  const kept = async () => {
    expect(
      await page.evaluate(() =>
        ["lab-charts", "lab-runs", "lab-samples"].every(
          (id) => (document.getElementById(id) as HTMLElement & { tagged?: boolean }).tagged,
        ),
      ),
      "the same panels",
    ).toBe(true);
    await expect(card.locator("details.knobs-more")).toHaveAttribute("open", "");
    await expect(beta).toHaveValue("0.07");
    await expect(beta).toBeFocused();
  };

  // Wider than 980 px: the run cards on the left again, first in the page.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(async () => (await layout(page)).chartsBeforeRuns).toBe(false);
  const wide = await layout(page);
  expect(wide.left.runs).toBeLessThan(wide.left.charts);
  await expect(skips).toHaveText(["Skip to charts", "Skip to samples", "Skip to runs"]);
  await expect(page.getByTestId("run-strip-bar"), "two columns: the cards scroll down, no bar").toHaveCount(
    0,
  );
  await kept();
  await page.setViewportSize({ width: 853, height: 533 });
  await expect.poll(async () => (await layout(page)).chartsBeforeRuns).toBe(true);
  await kept();
  await expect(page.locator('[data-testid^="run-card-"]')).toHaveCount(RUNS.length);

  // The card first in view stays first across the switch: scrolled to the end of the strip (the last two
  // cards in view), the column (two columns) has the first of them at its top; scrolled down the column to the
  // second card, the strip starts with it.
  await beta.blur();
  const column = page.getByTestId("run-column");
  await column.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  await expect(range).toHaveText(`${RUNS.length - 1}–${RUNS.length}`);
  const firstShown = page.getByTestId(`run-card-${RUNS[RUNS.length - 2]}`);
  const offset = async () => {
    const [c, s] = await Promise.all([firstShown.boundingBox(), column.boundingBox()]);
    return Math.abs((c?.y ?? 0) - (s?.y ?? 0));
  };
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(offset, { message: "that card first in the column" }).toBeLessThanOrEqual(1);
  await column.evaluate((el) => {
    const second = el.querySelectorAll("[data-strip-item]")[1] as HTMLElement;
    el.scrollTop = second.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
  });
  await page.setViewportSize({ width: 853, height: 533 });
  await expect(range).toHaveText(/^2/);
  expect(errors).toEqual([]);
});

/**
 * What a screen reader hears and where the keyboard is: a setting changed (its before → after and when it
 * applies), a refused value (read with its field), a lesson opened from the Lessons menu (the keyboard on its
 * card's heading, its name said), "Free play" (the card goes: the keyboard goes to Play).
 */
test("a screen reader hears a setting change, a refusal with its field, a lesson opened and Free play", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openExperiment(page, testLink());
  const said = page.getByTestId("page-status");
  const beta = page.getByTestId("knob-ppo-1-beta");
  await beta.fill("0.2");
  await beta.press("Enter");
  await expect(said).toHaveText(/^PPO: β [\d.]+ → 0\.2, from its first step\.\u200b?$/);
  // A refused value: the message is the field's description too, and so is its range.
  await beta.fill("abc");
  await beta.press("Enter");
  const described = await beta.evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? `(no #${id})`),
  );
  expect(described).toContain("β must be a number: “abc” not applied, β stays 0.2.");
  expect(
    described.some((d) => /^range \[.+\].*, default /.test(d)),
    described.join(" / "),
  ).toBe(true);

  await page.getByTestId("lesson-picker").selectOption("kl-estimators");
  await expect(page.getByTestId("lesson-card")).toHaveAttribute("data-lesson", "kl-estimators", {
    timeout: 120_000,
  });
  await labReady(page);
  await expect(page.getByTestId("lesson-card").getByRole("heading")).toBeFocused();
  await expect(said).toHaveText(
    /^Lesson 3 opened: KL estimators k1, k2, k3, 16 steps\. Press Play \(or space\) to train\.\u200b?$/,
  );
  await page.getByRole("button", { name: "Free play" }).click();
  await expect(page.getByTestId("lesson-card")).toHaveCount(0);
  await expect(page.getByTestId("play")).toBeFocused();
  await expect(said).toHaveText(/^Free play: the lesson's card and its step limit are gone/);
  expect(errors).toEqual([]);
});
