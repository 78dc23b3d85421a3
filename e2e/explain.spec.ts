import { expect, type Locator, type Page, test } from "@playwright/test";
import { PRESET_IDS } from "../src/lab/presets/ids";
import { metricDoc } from "../src/ui/lab/glossary";
import { ENTROPY } from "../src/ui/lab/metric_info";
import { testLink } from "./links";
import { openExperiment } from "./page";

/**
 * The explain panels (issue 7) and the metric glossary in the built app, with the test-sized experiment
 * (PPO, DPO, GRPO on arithmetic/nano). For PPO, DPO and GRPO the run card's "?" opens a panel that names the
 * algorithm, typesets every formula with KaTeX (no raw TeX, no "$" in its text), lists exactly the knobs the
 * run card has (with the run's own values where they differ from the defaults) and links arXiv papers; Esc
 * closes it and focus returns to its button. The run picker's guide adds a run of the algorithm it shows.
 * Hovering a chart title and a row of the all-metrics table shows the metric's glossary line. Screenshot:
 * the PPO panel at 1280×800, light theme.
 */

/** The knob labels a run card shows (its own knobs and the folded sampling & optimiser ones). */
async function cardKnobLabels(page: Page, runId: string): Promise<string[]> {
  const hints = page.getByTestId(`run-card-${runId}`).locator(`[data-testid^="hint-${runId}-"]`);
  return (await hints.allTextContents()).map((t) => t.trim()).sort();
}

/** Every display formula fits the drawer's width at 1280×800 (no sideways scrolling to read it). */
async function expectFormulasFit(panel: Locator) {
  const overflow = await panel
    .locator(".tex-display")
    .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
  expect(overflow).toEqual([]);
}

/** Checks shared by every panel: the title, KaTeX output without raw TeX, the knob list, the papers. */
async function checkPanel(page: Page, panel: Locator, runId: string, title: string) {
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId("explain-title")).toHaveText(title);
  // The idea in plain words comes first in the body, before any formula.
  await expect(panel.getByTestId("explain-plain")).toContainText(/^In plain words\. \S.{60,}/);
  const formulas = panel.locator("figure.explain-formula");
  const n = await formulas.count();
  expect(n).toBeGreaterThanOrEqual(3);
  // Every formula typeset by KaTeX, none fell back to its source.
  await expect(panel.locator("figure.explain-formula .katex-display")).toHaveCount(n);
  expect(await panel.locator(".explain-body p .katex").count()).toBeGreaterThan(0); // inline math
  await expect(panel.getByTestId("tex-error")).toHaveCount(0);
  await expectFormulasFit(panel);
  // The rendered text a reader sees (KaTeX keeps its TeX source only in hidden MathML annotations).
  // biome-ignore lint/performance/useDomNodeTextContent: the visible text is the point
  const text = await panel.innerText();
  expect(text).not.toMatch(/\\[a-zA-Z]+/);
  expect(text).not.toContain("$");
  expect(text).not.toContain("\\frac");
  // The knobs are the run card's knobs, label for label.
  await panel.locator(".explain-knobs-more > summary").click();
  const labels = (await panel.locator(".explain-knob-label").allTextContents()).map((t) => t.trim()).sort();
  expect(labels).toEqual(await cardKnobLabels(page, runId));
  // Papers: https arXiv abstract pages opening in a new tab.
  const links = panel.locator(".explain-papers a");
  expect(await links.count()).toBeGreaterThan(0);
  for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute("href"))))
    expect(href).toMatch(/^https:\/\/(arxiv\.org\/abs\/\d{4}\.\d{4,5}|doi\.org\/10\.)/);
  await expect(links.first()).toHaveAttribute("target", "_blank");
  await expect(links.first()).toHaveAttribute("rel", /noopener/);
}

test("explain panels typeset their objectives, list the run's knobs and close with Esc; metrics explain themselves on hover", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const errors: Error[] = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/${testLink()}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
  // No lesson open, nothing trained yet: the reward chart points a newcomer to the lessons (the others do not).
  await expect(page.locator(".chart-empty").first()).toContainText("New here? The top bar's “Lessons…”");
  await expect(page.locator(".chart-empty", { hasText: "New here?" })).toHaveCount(1);
  await expect(page.locator(".chart-empty").first()).toContainText(
    `walks through ${PRESET_IDS.length} guided experiments`,
  );
  const panel = page.getByTestId("explain-panel");

  // PPO, opened from the keyboard.
  const ppoButton = page.getByTestId("explain-ppo-1");
  await ppoButton.focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByTestId("explain-close")).toBeFocused();
  await checkPanel(page, panel, "ppo-1", "PPO");
  await expect(panel).toContainText("clip(");
  await expect(panel).toContainText("value head");
  // The run's own settings (testExperiment: 2 prompts, 1 epoch, lr 3e-3) next to the defaults (ε 0.2).
  await expect(panel.getByTestId("explain-knob-value-batchPrompts")).toHaveText("this run: 2");
  await expect(panel.getByTestId("explain-knob-value-ppoEpochs")).toHaveText("this run: 1");
  await expect(panel.getByTestId("explain-knob-value-lr")).toHaveText("this run: 0.003");
  await expect(panel.getByTestId("explain-knob-epsilon")).toContainText("Default 0.2");
  await expect(panel.getByTestId("explain-knob-beta")).toContainText("Default 0.05");
  await panel.locator(".explain-body").evaluate((el) => el.scrollTo(0, 0));
  const shot = await page.screenshot({ path: "test-results/explain-ppo.png" });
  await testInfo.attach("explain-ppo", { body: shot, contentType: "image/png" });
  await panel.locator("figure.explain-formula").nth(2).scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/explain-ppo-objective.png" });
  await panel.locator(".explain-papers").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/explain-ppo-papers.png" });
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(ppoButton).toBeFocused();

  // DPO, opened with the mouse, closed with its button.
  await page.getByTestId("explain-dpo-1").click();
  await checkPanel(page, panel, "dpo-1", "DPO");
  await expect(panel).toContainText("preference pairs");
  await expect(panel.getByTestId("explain-knob-value-batchPairs")).toHaveText("this run: 2");
  await expect(panel.getByTestId("explain-knob-beta")).toContainText("Default 0.1");
  await page.screenshot({ path: "test-results/explain-dpo.png" });
  await panel.getByTestId("explain-close").click();
  await expect(panel).toHaveCount(0);

  // GRPO.
  await page.getByTestId("explain-grpo-1").click();
  await checkPanel(page, panel, "grpo-1", "GRPO");
  await expect(panel.getByTestId("explain-knob-value-numGenerations")).toHaveText("this run: 2");
  // ε_high follows ε at its default 0 (TRL's None); TRL's names are GRPOConfig's, in TRL's unit.
  await expect(panel.getByTestId("explain-knob-epsilonHigh")).toContainText("Default 0");
  await expect(panel.getByTestId("explain-knob-epsilonHigh")).toContainText(
    "TRL GRPOConfig epsilon_high (the lab's 0: the upper clip follows ε)",
  );
  await expect(panel.getByTestId("explain-knob-batchPrompts")).toContainText(
    /TRL GRPOConfig per_device_train_batch_size \(TRL counts completions: \d+ prompts × 2 samples = \d+\)/,
  );
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);

  // The run picker's guide: switch to KTO, add a KTO run from it.
  await page.getByTestId("explain-algorithms").click();
  await expect(panel.getByTestId("explain-title")).toHaveText("PPO");
  await page.screenshot({ path: "test-results/explain-guide.png" });
  // Every algorithm's tab typesets its formulas (KaTeX, no raw TeX, nothing wider than the drawer).
  const tabs = panel.locator('[data-testid^="explain-tab-"]');
  expect(await tabs.count()).toBe(
    await page.getByTestId("add-run").locator("option[value]:not([value=''])").count(),
  );
  for (const tab of await tabs.all()) {
    await tab.click();
    await expect(panel.getByTestId("explain-title")).toHaveText((await tab.textContent()) ?? "");
    const figures = await panel.locator("figure.explain-formula").count();
    expect(figures).toBeGreaterThan(0);
    await expect(panel.locator("figure.explain-formula .katex-display")).toHaveCount(figures);
    await expect(panel.getByTestId("tex-error")).toHaveCount(0);
    await expectFormulasFit(panel);
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text is the point
    expect(await panel.innerText()).not.toMatch(/\\[a-zA-Z]+|\$/);
  }
  await panel.getByTestId("explain-tab-kto").click();
  await expect(panel.getByTestId("explain-title")).toHaveText("KTO");
  await panel.getByTestId("explain-add").click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId("run-card-kto-1")).toHaveAttribute("data-status", "ready");

  // Glossary: a chart title's hover card is the metric's definition.
  await page.getByTestId("chart-title-entropy").hover();
  await expect(page.getByRole("tooltip")).toContainText(ENTROPY.doc);
  await page.screenshot({ path: "test-results/glossary-entropy.png" });
  await page.mouse.move(0, 0);
  await expect(page.getByRole("tooltip")).toHaveCount(0);

  // One step, then every reported metric's name in the all-metrics table explains itself on hover and focus.
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("step-ppo-1")).toHaveText("1", { timeout: 300_000 });
  await expect(page.getByTestId("step-kto-1")).toHaveText("1", { timeout: 300_000 });
  await page.getByText(/All metrics at the latest step/).click();
  const value = page.locator('td[data-run="ppo-1"][data-metric="val/explained_variance"]');
  // Number(null) is 0: a cell without the attribute would pass a finiteness check.
  const explained = await value.getAttribute("data-value");
  expect(explained).not.toBeNull();
  expect(Number.isFinite(Number(explained))).toBe(true);
  const name = page.getByTestId("metric-name-val/explained_variance");
  await name.hover();
  await expect(page.getByRole("tooltip")).toContainText(metricDoc("val/explained_variance") ?? "(missing)");
  await page.mouse.move(0, 0);
  await page.getByTestId("metric-name-kto/desirable_fraction").focus();
  await expect(page.getByRole("tooltip")).toContainText(metricDoc("kto/desirable_fraction") ?? "(missing)");
  const ktoAttr = await page
    .locator('td[data-run="kto-1"][data-metric="kto/desirable_fraction"]')
    .getAttribute("data-value");
  expect(ktoAttr).not.toBeNull();
  const ktoShare = Number(ktoAttr);
  expect(ktoShare).toBeGreaterThanOrEqual(0);
  expect(ktoShare).toBeLessThanOrEqual(1);
  // KTO's kl is its reference point z₀, a KL per completion (GRPO's kl is per token): the row says which.
  await expect(page.locator('td[data-run="kto-1"][data-metric="kl"]')).toContainText("nats/completion");
  await page.getByTestId("metric-name-kto/desirable_fraction").blur();
  await expect(page.getByRole("tooltip")).toHaveCount(0);
  // A "more metrics" chart title too.
  await page.getByTestId("chart-title-val-explained-variance").hover();
  await expect(page.getByRole("tooltip")).toContainText("1 = a perfect value head");
  expect(errors).toEqual([]);
});

test("explain panels open offline (their code is fetched once the lab is up); a failed fetch says so, no crash", async ({
  page,
  context,
}) => {
  const errors = await openExperiment(page, testLink());
  // The panel's code (KaTeX with it) is out of the main bundle. It was fetched at the first open: offline, that
  // failed and reached the page's crash card ("Unable to preload CSS"), which stopped the training.
  await expect
    .poll(() =>
      page.evaluate(() => performance.getEntriesByType("resource").some((e) => /ExplainDialog/.test(e.name))),
    )
    .toBe(true);
  await context.setOffline(true);
  await page.getByTestId("explain-ppo-1").click();
  const panel = page.getByTestId("explain-panel");
  await expect(panel.getByTestId("explain-title")).toHaveText("PPO");
  await expect(panel.locator("figure.explain-formula .katex-display").first()).toBeVisible();
  await page.keyboard.press("Escape");
  await context.setOffline(false);

  // A fetch that fails (the network down while the lab opened, a version deployed since): said in the panel's
  // place, the lab untouched.
  const other = await context.newPage();
  await other.route(/\/assets\/ExplainDialog-/, (route) => route.abort("internetdisconnected"));
  const otherErrors = await openExperiment(other, testLink());
  await other.getByTestId("explain-ppo-1").click();
  await expect(other.getByTestId("explain-wait").getByRole("alert")).toContainText(
    /^The explanation could not be downloaded \(.+\)\. It is fetched once, after the lab opens, and the page keeps a failed fetch: check the connection, then reload the page/,
  );
  await expect(other.getByTestId("lab")).toHaveAttribute("data-phase", "ready"); // no crash card
  await other.keyboard.press("Escape");
  await expect(other.getByTestId("explain-wait")).toHaveCount(0);
  await expect(other.getByTestId("explain-ppo-1")).toBeFocused();
  expect([...errors, ...otherErrors]).toEqual([]);
});

test("every paper in an explain panel has Copy BibTeX, which copies its BibTeX entry", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const errors = await openExperiment(page, testLink());
  await page.getByTestId("explain-ppo-1").click();
  const panel = page.getByTestId("explain-panel");
  const papers = panel.locator(".explain-papers li");
  const n = await papers.count();
  expect(n).toBeGreaterThan(1);
  // One button per paper, each its own key.
  const buttons = panel.locator(".explain-papers li button.explain-bibtex");
  await expect(buttons).toHaveCount(n);
  const ids = await buttons.evaluateAll((bs) => bs.map((b) => b.getAttribute("data-testid")));
  expect(new Set(ids).size).toBe(n);
  for (let i = 0; i < n; i++) {
    const button = papers.nth(i).getByRole("button", { name: /^Copy BibTeX for / });
    await button.click();
    await expect(button).toHaveText("Copied");
    const bib = await page.evaluate(() => navigator.clipboard.readText());
    expect(bib).toMatch(/^@\w+\{[a-z]+\d{4}\w+,\n/);
    expect(bib).toContain(`url = {${await papers.nth(i).locator("a").getAttribute("href")}}`);
  }
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("author = {");
  await panel.locator(".explain-papers").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/explain-bibtex.png" });
  expect(errors).toEqual([]);
});
