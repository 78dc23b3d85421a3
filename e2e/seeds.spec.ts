import { expect, type Page, test } from "@playwright/test";
import { testExperiment } from "../src/lab/defaults";
import { exportedAllRuns } from "./exported";
import { linkOf } from "./links";
import { labReady, openExperiment } from "./page";

/**
 * Per-run seeds in the built app on SwiftShader: the test-sized experiment's PPO and GRPO (src/lab/defaults.ts),
 * two Steps, then Repeat on other seeds on PPO adds "PPO seed 1" and "PPO seed 2" (cards "seed 1", "seed 2";
 * the source keeps no mark: its seed is the experiment's). Three more Steps leave the source and GRPO at step 5
 * and the copies at 3, so the Across seeds table reads the group on the steps all three reached: "3 · steps
 * 1–3", 3 seeds (0, 1, 2), and its reward, gold reward, KL and entropy cells equal, at the table's 3 significant
 * digits, the mean and sample sd (n − 1) across seeds of each run's mean over those steps, recomputed from
 * "Export all runs (CSV)" (whose seed column says 0, 1, 2). The seeds really differ (their reward and entropy
 * histories are not all the same), and the share link opened in another profile has the copies with their
 * labels, seeds and settings. The table's screenshot is attached (across-seeds.png).
 */

const SOURCE = "ppo-1";
const COPIES = ["ppo-2", "ppo-3"];
const GROUP = [SOURCE, ...COPIES];
const OTHER = "grpo-1";
/** Steps before Repeat, and Steps after it (the copies' length; the source leads them by BEFORE). */
const BEFORE = 2;
const AFTER = 3;

/**
 * The test experiment without DPO: one PPO to repeat and one GRPO left alone (no group of its own). PPO optimises
 * the task's proxy reward model (models/arithmetic/rm.onnx): a random `nano` scores 0 on every gold answer, so on
 * gold every seed's reward would be 0 and the reward column 0 ± 0; the proxy's scores differ by sample.
 */
function link(): string {
  const e = testExperiment();
  const runs = e.runs.filter((r) => r.id === SOURCE || r.id === OTHER);
  return linkOf({
    ...e,
    runs: runs.map((r) => (r.id === SOURCE ? { ...r, config: { ...r.config, reward: "proxy" } } : r)),
  });
}

async function stepsOf(page: Page, ids: readonly string[]): Promise<number[]> {
  return Promise.all(ids.map(async (id) => Number(await page.getByTestId(`step-${id}`).textContent())));
}

/** Press Step and wait until runs `ids` are at `want`. */
async function stepTo(page: Page, ids: readonly string[], want: number[]) {
  await expect(page.getByTestId("step-once")).toBeEnabled({ timeout: 120_000 });
  await page.getByTestId("step-once").click();
  await expect.poll(() => stepsOf(page, ids), { timeout: 120_000, intervals: [500, 1000] }).toEqual(want);
}

/** The summary's number format (src/ui/lab/SeedsSummary.tsx num): 3 significant digits, exponent below 1e-3. */
function shown(x: number): string {
  if (x === 0 || Math.abs(x) >= 1e-3) return String(Number(x.toPrecision(3)));
  return x.toExponential(1);
}

/** Mean, summed from the last value back (as seed_groups.ts lastMean adds them). */
function meanBack(xs: readonly number[]): number {
  return [...xs].reverse().reduce((a, b) => a + b, 0) / xs.length;
}

/** Mean and sample sd (n − 1) across `xs`. */
function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, sd: Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)) };
}

test("Repeat on other seeds: copies on seeds 1 and 2, Across seeds equals the exported histories, the link keeps them", async ({
  page,
  browser,
  context,
  storageState,
}, testInfo) => {
  test.setTimeout(300_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const errors = await openExperiment(page, link());
  for (let s = 1; s <= BEFORE; s++) await stepTo(page, [SOURCE, OTHER], [s, s]);
  // One configuration on one seed: no table yet.
  await expect(page.getByTestId("seeds-summary")).toHaveCount(0);

  await page.getByRole("button", { name: "Repeat PPO on 2 other seeds" }).click();
  const card = (id: string) => page.getByTestId(`run-card-${id}`);
  await expect(page.locator('[data-testid^="run-card-"]')).toHaveCount(4);
  for (const [i, id] of COPIES.entries()) {
    await expect(card(id).locator("h3")).toHaveText(`PPO seed ${i + 1}`);
    await expect(page.getByTestId(`seed-${id}`)).toHaveText(`seed ${i + 1}`);
    await expect(page.getByTestId(`step-${id}`)).toHaveText("0");
    await expect(page.getByTestId(`status-${id}`)).toHaveText("ready", { timeout: 60_000 });
  }
  // The source trains on the experiment's seed (0): no mark on it or on GRPO.
  await expect(page.getByTestId(`seed-${SOURCE}`)).toHaveCount(0);
  await expect(page.getByTestId(`seed-${OTHER}`)).toHaveCount(0);

  // Every Step trains all four (the copies are more than one step behind): source and GRPO 5, copies 3.
  const ids = [SOURCE, OTHER, ...COPIES];
  for (let s = 1; s <= AFTER; s++) await stepTo(page, ids, [BEFORE + s, BEFORE + s, s, s]);

  // The table: one group (GRPO has one seed), PPO on seeds 0, 1, 2, read at the copies' steps.
  const summary = page.getByTestId("seeds-summary");
  await expect(summary.locator("tbody tr")).toHaveCount(1);
  const row = page.getByTestId(`seeds-row-${SOURCE}`);
  const head = (await summary.locator("thead th").allTextContents()).map((t) => t.trim());
  expect(head).toEqual([
    "Runs (same settings)",
    "seeds",
    "N · steps",
    "reward",
    "gold reward",
    "KL (nats)",
    "entropy",
  ]);
  const cells = row.locator("td");
  await expect(cells.nth(0)).toHaveText("PPO");
  await expect(cells.nth(1)).toHaveText("3 (0, 1, 2)");
  await expect(cells.nth(2)).toHaveText(`${AFTER} · steps 1–${AFTER}`);
  await expect(cells.nth(2)).toHaveAttribute(
    "title",
    `runs at steps ${AFTER}–${BEFORE + AFTER}: read at steps 1–${AFTER}, which all reached`,
  );
  const png = await summary.screenshot({ path: testInfo.outputPath("across-seeds.png") });
  await testInfo.attach("across-seeds.png", { body: png, contentType: "image/png" });

  // The histories the table reads, as the page exports them: one file, seeds 0, 1, 2 for the group.
  const all = await exportedAllRuns(page, SOURCE);
  expect(all.name).toBe(`arithmetic-seed0-all-runs-step${BEFORE + AFTER}.csv`);
  const rowsOf = (id: string) => all.rows.filter((r) => r.run === id);
  expect(GROUP.map((id) => [...new Set(rowsOf(id).map((r) => r.seed))])).toEqual([["0"], ["1"], ["2"]]);
  expect(GROUP.map((id) => [...new Set(rowsOf(id).map((r) => r.label))])).toEqual([
    ["PPO"],
    ["PPO seed 1"],
    ["PPO seed 2"],
  ]);
  expect(GROUP.map((id) => rowsOf(id).map((r) => Number(r.step)))).toEqual([
    [1, 2, 3, 4, 5],
    [1, 2, 3],
    [1, 2, 3],
  ]);
  const values = (id: string, metric: string) =>
    rowsOf(id)
      .filter((r) => Number(r.step) <= AFTER)
      .map((r) => (r[metric] === "" || r[metric] === undefined ? Number.NaN : Number(r[metric])));
  // The KL the table reads: the exact KL where every run logs it in the window, else k1; its note says which.
  const exact = GROUP.every((id) => values(id, "objective/kl_exact").every(Number.isFinite));
  const kl = exact ? "objective/kl_exact" : "objective/kl";
  await expect(cells.nth(5)).toContainText(exact ? " exact" : " k1");
  const metrics: [string, number][] = [
    ["reward", 3],
    ["reward_gold", 4],
    [kl, 5],
    ["entropy", 6],
  ];
  const histories: Record<string, number[][]> = {};
  for (const [metric, col] of metrics) {
    const perRun = GROUP.map((id) => values(id, metric));
    histories[metric] = perRun;
    for (const xs of perRun) expect(xs.every(Number.isFinite), `${metric}: ${xs}`).toBe(true);
    const { mean, sd } = meanSd(perRun.map(meanBack));
    const text = (await cells.nth(col).textContent()) ?? "";
    console.log(`${metric}: ${JSON.stringify(perRun)} → ${mean} ± ${sd}; shown "${text}"`);
    expect(text, `${metric}: ${JSON.stringify(perRun)}`).toMatch(
      new RegExp(`^${shown(mean).replace(/[.+]/g, "\\$&")} ± ${shown(sd).replace(/[.+]/g, "\\$&")}( |$)`),
    );
  }
  // The seeds differ: the three runs' reward (and entropy) histories are not one history thrice.
  const same = (xs: number[][]) => xs.every((h) => JSON.stringify(h) === JSON.stringify(xs[0]));
  expect(same(histories.reward), "the same rewards on every seed").toBe(false);
  expect(same(histories.entropy), "the same entropy on every seed").toBe(false);

  // Share: the link opened in another profile (nothing saved) has the copies, named and seeded.
  await page.getByTestId("share").click();
  const shared = await page.evaluate(() => navigator.clipboard.readText());
  const other = await browser.newContext({ storageState });
  const second = await other.newPage();
  await second.goto(shared);
  await labReady(second);
  await expect(second.locator('[data-testid^="run-card-"]')).toHaveCount(4);
  await expect(second.getByTestId(`run-card-${SOURCE}`).locator("h3")).toHaveText("PPO");
  await expect(second.getByTestId(`seed-${SOURCE}`)).toHaveCount(0);
  for (const [i, id] of COPIES.entries()) {
    await expect(second.getByTestId(`run-card-${id}`).locator("h3")).toHaveText(`PPO seed ${i + 1}`);
    await expect(second.getByTestId(`seed-${id}`)).toHaveText(`seed ${i + 1}`);
    await expect(second.getByTestId(`legend-${id}`)).toContainText(`PPO seed ${i + 1}`);
    await expect(second.getByTestId(`knob-${id}-reward`)).toHaveValue("proxy");
  }
  // The link carries the training's settings, not its steps: nothing to summarise yet.
  await expect(second.getByTestId("seeds-summary")).toHaveCount(0);
  await other.close();
  expect(errors).toEqual([]);
});
