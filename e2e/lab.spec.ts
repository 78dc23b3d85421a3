import { expect, type Page, test } from "@playwright/test";
import { REWARD_LEARNERS } from "../src/lab/algo_ids";
import { testExperiment } from "../src/lab/defaults";
import { NO_SIGNAL_STEPS, noSignalNote } from "../src/ui/lab/no_signal";
import { exportedCsv } from "./exported";
import { testLink } from "./links";
import { collectPageErrors } from "./page";

/**
 * The lab UI in the built app on SwiftShader, with the test-sized experiment (arithmetic, nano, tiny batches;
 * src/lab/defaults.ts) opened from its link: space plays; each of PPO, DPO and GRPO gets ≥ 5 points on the
 * reward, KL and entropy charts; every plotted value (the charts' data tables) is finite and equals the run's
 * metric history as exported to CSV, step for step; pause stops the steps and play resumes them; β changed
 * mid-run drops a labelled marker on every chart; shape fields lock once a run has started; tokens show
 * their numbers on hover. Screenshots at 1280×800, light and dark.
 */

const RUNS = testExperiment().runs.map((r) => r.id);

/** Chart id → the metrics it plots (the reward chart: the run's reward and the gold scorer). */
const CHARTS: Record<string, string[]> = {
  reward: ["reward", "reward_gold"],
  kl: ["objective/kl"],
  entropy: ["entropy"],
};
const MIN_POINTS = 5;

interface Plotted {
  count: number;
  steps: number[];
  raw: (number | null)[];
}

/** What a chart plots for one run and metric, from its data table (empty when the line is not there). */
async function plotted(page: Page, chart: string, runId: string, metric: string): Promise<Plotted> {
  const row = page.locator(
    `[data-testid="chart-data-${chart}"] tr[data-run="${runId}"][data-metric="${metric}"]`,
  );
  if ((await row.count()) === 0) return { count: 0, steps: [], raw: [] };
  const r = row.first();
  return {
    count: Number(await r.getAttribute("data-count")),
    steps: JSON.parse((await r.getAttribute("data-steps")) ?? "[]"),
    raw: JSON.parse((await r.getAttribute("data-raw")) ?? "[]"),
  };
}

/** Fewest points any run has on any of the three charts. */
async function fewestPoints(page: Page): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (const id of RUNS)
    for (const [chart, metrics] of Object.entries(CHARTS))
      min = Math.min(min, (await plotted(page, chart, id, metrics[0])).count);
  return min;
}

async function steps(page: Page): Promise<number[]> {
  return Promise.all(RUNS.map(async (id) => Number(await page.getByTestId(`step-${id}`).textContent())));
}

async function screenshot(page: Page, name: string, testInfo: import("@playwright/test").TestInfo) {
  const body = await page.screenshot({ path: `test-results/${name}.png` });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

test("three runs train side by side: plotted values equal the metrics, pause/resume, a β change drops a marker", async ({
  page,
}, testInfo) => {
  test.setTimeout(900_000);
  const pageErrors = collectPageErrors(page);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/${testLink()}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
  for (const id of RUNS) await expect(page.getByTestId(`status-${id}`)).toHaveText("ready");
  await expect(page.getByTestId("task")).toHaveText("Arithmetic");
  await expect(page.getByTestId("model")).toContainText("nano");
  // Every algorithm of the registry can be added.
  expect(await page.getByTestId("add-run").locator("option").count()).toBeGreaterThanOrEqual(7);
  // Before the first step every setting may change, the batch shape included.
  await expect(page.getByTestId("knob-ppo-1-batchPrompts")).toBeEnabled();

  // Space plays (focus on the page, not on a control).
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Space");
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("transport-status")).toHaveText("Training.");
  // The tab says so too, for a teacher with several lessons in tabs.
  await expect(page).toHaveTitle(/^▶ Arithmetic · step \d+ — RLHF Playground$/, { timeout: 120_000 });
  await expect
    .poll(() => fewestPoints(page), { timeout: 480_000, intervals: [2000] })
    .toBeGreaterThanOrEqual(MIN_POINTS);

  // Space again pauses: every run reports "paused" and the step counters stop.
  await page.keyboard.press("Space");
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false");
  for (const id of RUNS)
    await expect(page.getByTestId(`status-${id}`)).toHaveText("paused", { timeout: 120_000 });
  const paused = await steps(page);
  await page.waitForTimeout(3000);
  expect(await steps(page), "no steps while paused").toEqual(paused);
  await expect(page).toHaveTitle(`Arithmetic · step ${Math.max(...paused)} — RLHF Playground`);
  // Each run's shape (its legend swatch) differs from the others' and ends its line on every main chart.
  const shapes = await Promise.all(
    RUNS.map((id) => page.getByTestId(`legend-${id}`).locator(".legend-swatch").getAttribute("data-shape")),
  );
  expect(new Set(shapes).size, `shapes ${shapes}`).toBe(RUNS.length);
  for (const chart of ["reward", "kl", "entropy"])
    for (const [i, id] of RUNS.entries())
      await expect(
        page.getByTestId(`chart-${chart}`).locator(`.line-end[data-run="${id}"]`).first(),
      ).toHaveAttribute("data-shape", shapes[i] ?? "");
  // Shape fields lock once a run has started; β does not.
  await expect(page.getByTestId("knob-ppo-1-batchPrompts")).toBeDisabled();
  await expect(page.getByTestId("knob-ppo-1-beta")).toBeEnabled();

  // Every plotted value is finite and equals the run's metric at that step (CSV export, full precision).
  for (const [i, id] of RUNS.entries()) {
    const csv = await exportedCsv(page, id);
    expect(csv.length, `${id}: one CSV row per step`).toBe(paused[i]);
    for (const [chart, metrics] of Object.entries(CHARTS))
      for (const metric of metrics) {
        const rows = csv.filter((r) => r[metric] !== null && r[metric] !== undefined);
        // A run that optimises gold draws one reward line (its gold line would lie under it): then its
        // reward is its gold score at every step, and the reward line above was checked against the CSV.
        if (metric === "reward_gold" && rows.every((r) => r.reward === r.reward_gold)) {
          expect(rows.length, `${id} reward_gold rows`).toBeGreaterThanOrEqual(MIN_POINTS);
          await expect.poll(async () => (await plotted(page, chart, id, metric)).count).toBe(0);
          continue;
        }
        await expect
          .poll(async () => (await plotted(page, chart, id, metric)).count, { message: `${id} ${metric}` })
          .toBe(rows.length);
        const p = await plotted(page, chart, id, metric);
        expect(p.count, `${id} ${metric} points`).toBeGreaterThanOrEqual(MIN_POINTS);
        expect(
          p.raw.every((v) => typeof v === "number" && Number.isFinite(v)),
          `${id} ${metric}: ${p.raw}`,
        ).toBe(true);
        expect(p.steps, `${id} ${metric} steps`).toEqual(rows.map((r) => r.step));
        expect(p.raw, `${id} ${metric} values`).toEqual(rows.map((r) => r[metric]));
      }
    // On the tokens axis the x values are the run's cumulative completion tokens.
    if (i === 0) {
      await page.getByTestId("x-tokens").click();
      await expect(page.getByTestId("chart-reward")).toHaveAttribute("data-x-axis", "tokens");
      const row = page.locator(
        `[data-testid="chart-data-entropy"] tr[data-run="${id}"][data-metric="entropy"]`,
      );
      await expect
        .poll(async () => JSON.parse((await row.getAttribute("data-x")) ?? "[]"))
        .toEqual(csv.map((r) => r.tokens));
      await page.getByTestId("x-step").click();
    }
    // The "no learning signal" hint shows exactly when the run's last steps all had zero reward std (per group
    // where it has groups): a reward-learning run on the random nano model usually earns nothing.
    const points = csv.map(({ step, samples, tokens, ...metrics }) => ({
      step: step ?? 0,
      samples: samples ?? 0,
      tokens: tokens ?? 0,
      metrics: Object.fromEntries(Object.entries(metrics).filter(([, v]) => v !== null)) as Record<
        string,
        number
      >,
    }));
    const flat = REWARD_LEARNERS.has(testExperiment().runs[i].algo) && noSignalNote(points, true) !== null;
    console.log(
      `${id}: last rewards ${csv
        .slice(-NO_SIGNAL_STEPS)
        .map((r) => r.reward)
        .join(", ")}; no-signal note expected: ${flat}`,
    );
    await expect(page.getByTestId(`no-signal-${id}`)).toHaveCount(flat ? 1 : 0);
    // The latest-metrics table agrees with the last row.
    const last = csv.at(-1) ?? {};
    const cell = page.locator(`[data-testid="metrics-table"] td[data-run="${id}"][data-metric="entropy"]`);
    expect(Number(await cell.getAttribute("data-value"))).toBe(last.entropy);
  }

  // A knob's tooltip: meaning, range, default, source, TRL's name.
  await page.getByTestId("hint-ppo-1-beta").hover();
  await expect(page.getByRole("tooltip")).toContainText(/Range\s*\[0, 10\]/);
  await expect(page.getByRole("tooltip")).toContainText(/TRL\s*PPOConfig kl_coef/);
  // The legend hides and shows a run on every chart.
  await page.getByTestId("legend-dpo-1").click();
  await expect(page.locator('[data-testid="chart-data-kl"] tr[data-run="dpo-1"]')).toHaveCount(0);
  await page.getByTestId("legend-dpo-1").click();
  await expect(page.locator('[data-testid="chart-data-kl"] tr[data-run="dpo-1"]')).toHaveCount(1);

  // Tokens: hovering one shows its numbers; a colour mode paints the text and shows its scale.
  await page.getByTestId("colour-mode").selectOption("kl");
  await expect(page.getByTestId("colour-legend")).toBeVisible();
  await page.locator('[data-testid="samples-ppo-1"] [data-tok]').first().scrollIntoViewIfNeeded();
  // (Paused: the samples hold still. A nano completion can be a single token, so take the first sample's last.)
  const sample = page.locator('[data-testid="samples-ppo-1"] [role="listbox"]').first();
  const tokens = sample.locator("[data-tok]");
  const last = tokens.nth((await tokens.count()) - 1);
  await last.hover();
  await expect(page.getByTestId("token-card")).toContainText("log-prob");
  const hoverCard = await page.getByTestId("token-card").textContent();
  // Its numbers agree: probability = e^log-prob; k3 = e^(−k1) − 1 + k1 from the same token's k1 (3 digits each).
  const card = await page
    .getByTestId("token-card")
    .evaluate((el) =>
      Object.fromEntries(
        [...el.querySelectorAll("dl > div")].map((d) => [
          d.querySelector("dt")?.textContent ?? "",
          Number.parseFloat((d.querySelector("dd")?.textContent ?? "").replace("−", "-")),
        ]),
      ),
    );
  console.log(`token card: ${JSON.stringify(card)}`);
  const k1 = card["KL k1 = log π/π_ref"];
  expect(card.probability).toBeCloseTo(Math.exp(card["log-prob"]), 2);
  expect(Math.abs(card["KL k3 (≥ 0)"] - (Math.expm1(-k1) + k1))).toBeLessThanOrEqual(
    0.02 * Math.abs(card["KL k3 (≥ 0)"]) + 1e-3 * Math.abs(k1) + 1e-6,
  );
  expect(card["KL k3 (≥ 0)"]).toBeGreaterThanOrEqual(0);
  await page.mouse.move(0, 0);
  await expect(page.getByTestId("token-card")).toHaveCount(0);
  // The keyboard reaches the same card: the first tab stop of the page is a skip link (hidden until focused);
  // "Skip to samples" lands on the samples section, a few Tabs reach the first sample (one tab stop per sample),
  // and End moves the token cursor to its last token.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Tab");
  const skip = page.getByRole("button", { name: "Skip to charts" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Skip to samples" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("samples")).toBeFocused();
  let tabs = 0;
  while (tabs < 10 && !(await sample.evaluate((el) => el === document.activeElement))) {
    await page.keyboard.press("Tab");
    tabs++;
  }
  await expect(sample, `first sample after ${tabs} Tabs from the skip link`).toBeFocused();
  expect(tabs).toBeLessThanOrEqual(4);
  console.log(`keyboard: skip link → first sample in ${tabs} Tab presses`);
  await page.keyboard.press("End");
  await expect(last).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("token-card")).toHaveText(hoverCard ?? "");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("token-card")).toHaveCount(0);
  await page.getByTestId("colour-mode").selectOption("none");
  await page.evaluate(() => window.scrollTo(0, 0));

  // Resume: the steps move again.
  await page.getByTestId("play").click();
  for (const id of RUNS)
    await expect(page.getByTestId(`status-${id}`)).toHaveText("running", { timeout: 120_000 });
  await expect.poll(async () => (await steps(page))[0], { timeout: 240_000 }).toBeGreaterThan(paused[0]);

  // β changed mid-run: applies at PPO's next step, with a labelled marker on every chart.
  const beta = page.getByTestId("knob-ppo-1-beta");
  // An out-of-range value is refused with the range named; typing the value the run already has clears it.
  const betaBefore = await beta.inputValue();
  const betaError = beta
    .locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' knob ')][1]")
    .getByRole("alert");
  await beta.fill("-1");
  await beta.press("Enter");
  await expect(betaError).toHaveText(`β must be in [0, 10]: “-1” not applied, β stays ${betaBefore}.`);
  await expect(beta).toHaveValue(betaBefore);
  // Leaving the field after the refusal keeps its message (the value put back is no new try).
  await beta.blur();
  await expect(betaError).toHaveText(/β must be in \[0, 10\]/);
  await beta.fill(betaBefore);
  await beta.press("Enter");
  await expect(betaError).toHaveCount(0);
  await beta.fill("0");
  await beta.press("Enter");
  await expect(beta).toHaveValue("0");
  for (const chart of Object.keys(CHARTS)) {
    const marker = page.locator(
      `[data-testid="chart-data-${chart}"] tr[data-marker][data-run="ppo-1"][data-label*="β"]`,
    );
    await expect(marker, `${chart}: marker row`).toHaveCount(1, { timeout: 240_000 });
    await expect(marker).toHaveAttribute("data-x", /\d/, { timeout: 240_000 });
    await expect(
      page.locator(`[data-testid="chart-${chart}"] .marker-line`).first(),
      `${chart}: marker line`,
    ).toBeAttached();
  }
  // A few steps past the marker, then pause for the pictures.
  const atMarker = (await steps(page))[0];
  await expect
    .poll(async () => (await steps(page))[0], { timeout: 240_000 })
    .toBeGreaterThanOrEqual(atMarker + 2);
  await page.getByTestId("play").click();
  for (const id of RUNS)
    await expect(page.getByTestId(`status-${id}`)).toHaveText("paused", { timeout: 120_000 });
  await page.waitForTimeout(1000);

  await page.mouse.move(0, 0);
  await page.getByTestId("run-column").evaluate((el) => el.scrollTo(0, 0));
  await screenshot(page, "lab-light", testInfo);
  const full = await page.screenshot({ path: "test-results/lab-light-full.png", fullPage: true });
  await testInfo.attach("lab-light-full", { body: full, contentType: "image/png" });
  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.waitForTimeout(500);
  await screenshot(page, "lab-dark", testInfo);
  await page.getByTestId("samples").scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await screenshot(page, "lab-dark-samples", testInfo);
  await page.evaluate(() => window.scrollTo(0, 0));

  // Add a run of another algorithm, duplicate one from its current state, remove both.
  const ppoStep = (await steps(page))[0];
  await page.getByTestId("add-run").focus(); // as a user's pick does (selectOption alone does not focus)
  await page.getByTestId("add-run").selectOption("rloo");
  await expect(page.getByTestId("run-card-rloo-1")).toHaveAttribute("data-status", "ready");
  // The keyboard goes to the new card (the menu that added it may be out of view by now).
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
    .toBe("run-card-rloo-1");
  // It takes what every run shares (the test experiment's 4-token limit and lr), its own defaults otherwise.
  await expect(page.getByTestId("knob-rloo-1-maxNewTokens")).toHaveValue("4");
  await expect(page.getByTestId("knob-rloo-1-lr")).toHaveValue("0.003");
  await page.getByTestId("fork-ppo-1").click();
  const fork = page.getByTestId("run-card-ppo-2");
  await expect(fork).toContainText(`PPO (fork @ ${ppoStep})`);
  // The fork mark explains itself on hover.
  await expect(fork.locator("h3")).toHaveAttribute(
    "title",
    new RegExp(`a duplicate of PPO made at step ${ppoStep},`),
  );
  await expect(fork).toHaveAttribute("data-step", String(ppoStep));
  // Same weights, step and settings: the card says the two will train identically until a setting differs.
  await expect(page.getByTestId("twin-ppo-2")).toContainText(`as PPO from step ${ppoStep}`);
  // The runs step one after another: the one on the device says so, a run whose turn is still to come too
  // (RLOO is fifth). Its status texts are recorded as they change: nano steps can all land before a poll.
  await page.getByTestId("run-card-rloo-1").evaluate((card) => {
    const text = () => card.querySelector('[data-testid="status-rloo-1"]')?.textContent ?? "";
    const seen = [text()];
    (window as unknown as { rlooSeen: string[] }).rlooSeen = seen;
    new MutationObserver(() => {
      if (seen.at(-1) !== text()) seen.push(text());
    }).observe(card, { childList: true, characterData: true, subtree: true });
  });
  await page.getByTestId("step-once").click();
  await expect(page.getByTestId("run-card-rloo-1")).toHaveAttribute("data-step", "1", { timeout: 240_000 });
  await expect(page.getByTestId("status-rloo-1")).toHaveText("paused");
  const seen = await page.evaluate(() => (window as unknown as { rlooSeen: string[] }).rlooSeen);
  console.log(`RLOO's status under Step: ${seen.join(" → ")}`);
  expect(seen[0]).toBe("ready");
  expect(seen.slice(1, -1)).toContain("waiting…");
  expect(seen.at(-1)).toBe("paused");
  await expect(fork).toHaveAttribute("data-step", String(ppoStep + 1), { timeout: 240_000 });
  // Up to the fork step the fork's history is its source's: its line starts where the two branch, so it does
  // not hide the source's line; the source's is drawn whole.
  await expect
    .poll(async () => (await plotted(page, "reward", "ppo-2", "reward")).steps)
    .toEqual([ppoStep, ppoStep + 1]);
  expect((await plotted(page, "reward", "ppo-1", "reward")).steps[0]).toBe(1);
  // Removing a trained run asks first, saying what is lost; Cancel keeps it.
  await page.getByTestId("remove-rloo-1").click();
  await expect(page.getByTestId("remove-rloo-1-confirm-card")).toContainText("Its 1 step of training");
  await page.getByTestId("remove-rloo-1-cancel").click();
  await expect(page.getByTestId("run-card-rloo-1")).toHaveCount(1);
  await page.getByTestId("remove-rloo-1").click();
  await page.getByTestId("remove-rloo-1-confirm").click();
  await page.getByTestId("remove-ppo-2").click();
  await expect(page.getByTestId("remove-ppo-2-confirm-card")).toContainText(`Its ${ppoStep + 1} steps`);
  await page.getByTestId("remove-ppo-2-confirm").click();
  await expect(page.locator('[data-testid^="run-card-"]')).toHaveCount(RUNS.length);
  // Reset asks too (Escape cancels): the runs keep their steps.
  const before = await steps(page);
  await page.getByTestId("reset").click();
  await expect(page.getByTestId("reset-confirm-card")).toContainText(`up to step ${Math.max(...before)}`);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("reset-confirm-card")).toHaveCount(0);
  expect(await steps(page)).toEqual(before);

  // The Export menu opens whole inside the window (not clipped by the run column) and Escape closes it.
  await page.getByTestId("export-ppo-1").click();
  const csvItem = page.getByTestId("export-ppo-1-csv");
  await expect(csvItem).toBeVisible();
  const box = await csvItem.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 1280, `menu item at ${JSON.stringify(box)}`).toBe(true);
  await page.keyboard.press("Escape");
  await expect(csvItem).toHaveCount(0);

  // Opening a lesson over trained runs asks first; Cancel keeps this experiment.
  const url = page.url();
  await page.getByTestId("lesson-picker").selectOption("kl-estimators");
  await expect(page.getByTestId("lesson-picker-confirm-card")).toContainText(
    `“KL estimators k1, k2, k3”? It replaces this experiment. This browser keeps its training (runs up to step ${Math.max(...before)}) under Change… → Recent experiments.`,
  );
  await page.getByTestId("lesson-picker-cancel").click();
  await expect(page.getByTestId("lesson-picker-confirm-card")).toHaveCount(0);
  expect(page.url()).toBe(url);
  expect(await steps(page)).toEqual(before);

  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  expect(pageErrors.map(String)).toEqual([]);
});
