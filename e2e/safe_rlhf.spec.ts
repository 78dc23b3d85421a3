/**
 * Safe RLHF in the lab: the run charts its mean cost E[c] against the limit d and its Lagrange multiplier λ
 * ("more metrics"), and the plotted λ follows the update rule λ ← max(0, λ + η(E[c] − d)) from the plotted
 * costs; a second run with a proportional term Kₚ plots λ = max(0, λ_I + Kₚ·(E[c] − d)) and, dashed, λ_I, which
 * follows the same rule.
 * nano model, arithmetic, tiny batches; d = 1 token so the constraint binds from the first step.
 */
import { expect, type Page, test } from "@playwright/test";
import type { ExperimentSpec } from "../src/lab/protocol";
import { linkOf } from "./links";

const D = 1;
const ETA = 0.5;
const STEPS = 3;
const KP = 0.25;

/** The plotted raw values of `metric` on the diagnostics chart `chart` for the run. */
async function plotted(page: Page, chart: string, metric: string, run = "safe"): Promise<number[]> {
  const row = page.locator(
    `[data-testid="chart-data-${chart}"] tr[data-run="${run}"][data-metric="${metric}"]`,
  );
  if ((await row.count()) === 0) return [];
  return JSON.parse((await row.getAttribute("data-raw")) ?? "[]");
}

test("Safe RLHF charts E[c] against d and λ, and λ follows its update rule", async ({ page }) => {
  test.setTimeout(300_000);
  const config = {
    batchPrompts: 2,
    numGenerations: 2,
    maxNewTokens: 4,
    lr: 3e-3,
    costLimit: D,
    lambdaLr: ETA,
  };
  const spec: ExperimentSpec = {
    task: "arithmetic",
    model: "nano",
    seed: 0,
    runs: [
      { id: "safe", algo: "safe_rlhf", label: "Safe RLHF", config },
      { id: "safe-p", algo: "safe_rlhf", label: "Safe RLHF, Kₚ", config: { ...config, lambdaKp: KP } },
    ],
  };
  await page.goto(`/${linkOf(spec)}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
  for (let s = 1; s <= STEPS; s++) {
    await page.getByTestId("step-once").click();
    await expect(page.getByTestId("step-safe")).toHaveText(String(s), { timeout: 180_000 });
    await expect(page.getByTestId("step-safe-p")).toHaveText(String(s), { timeout: 180_000 });
  }
  await page.getByTestId("more-metrics").scrollIntoViewIfNeeded();
  await expect(page.getByTestId("chart-safe-cost")).toContainText("Cost vs limit d");
  await expect(page.getByTestId("chart-safe-lambda")).toContainText("Lagrange multiplier λ");
  // Each small chart names its runs (and its dashed companion) beside its title.
  await expect(page.getByTestId("mini-legend-safe-cost").locator("li")).toHaveText([
    "Safe RLHF",
    "Safe RLHF, Kₚ",
    "E[c]",
    "d",
  ]);
  await expect.poll(async () => (await plotted(page, "safe-lambda", "safe/lambda")).length).toBe(STEPS);
  await expect.poll(async () => (await plotted(page, "safe-cost", "safe/cost")).length).toBe(STEPS);
  const cost = await plotted(page, "safe-cost", "safe/cost");
  const limit = await plotted(page, "safe-cost", "safe/cost_limit");
  const lambda = await plotted(page, "safe-lambda", "safe/lambda");
  expect(limit).toEqual(Array(STEPS).fill(D));
  // Completions are 1–4 tokens (EOS counts), so the mean cost is in [1, 4] and λ starts at λ₀ = 0.
  for (const c of cost) expect(c >= 1 && c <= 4, `cost ${c}`).toBe(true);
  expect(lambda[0]).toBe(0);
  for (let t = 1; t < STEPS; t++)
    expect(lambda[t]).toBeCloseTo(Math.max(0, lambda[t - 1] + ETA * (cost[t - 1] - D)), 6);
  // With Kₚ: each step's λ adds Kₚ times its own excess to the integral, which follows the same rule.
  await expect
    .poll(async () => (await plotted(page, "safe-lambda", "safe/lambda", "safe-p")).length)
    .toBe(STEPS);
  await expect.poll(async () => (await plotted(page, "safe-cost", "safe/cost", "safe-p")).length).toBe(STEPS);
  const costP = await plotted(page, "safe-cost", "safe/cost", "safe-p");
  const lambdaP = await plotted(page, "safe-lambda", "safe/lambda", "safe-p");
  // The integral λ_I is drawn dashed on the same chart: the λ each step used is built from it.
  const integralP = await plotted(page, "safe-lambda", "safe/lambda_integral", "safe-p");
  let integral = 0;
  for (let t = 0; t < STEPS; t++) {
    expect(integralP[t], `λ_I at step ${t + 1}`).toBeCloseTo(integral, 6);
    expect(lambdaP[t], `step ${t + 1}`).toBeCloseTo(Math.max(0, integral + KP * (costP[t] - D)), 6);
    integral = Math.max(0, integral + ETA * (costP[t] - D));
  }
  await page.getByTestId("more-metrics").screenshot({ path: test.info().outputPath("safe-rlhf.png") });
});
