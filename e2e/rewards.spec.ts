import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import LZString from "lz-string";
import { testExperiment } from "../src/lab/defaults";
import { RM_TIME_LIMITS } from "../src/lab/rm_isolated";
import { toyModel } from "../test/helpers/toy_rm";
import { openExperiment } from "./page";

/**
 * Reward sources per run in the built app (SwiftShader): the test experiment's GRPO twice, one optimising the
 * task's shipped proxy RM (models/arithmetic/rm.onnx, onnxruntime-web in the training worker), one the gold
 * verifier. After 3 steps the proxy run's plotted `reward` points are finite and differ from its
 * `reward_gold` points (the gold run draws one line). A corrupt .onnx gives a notice naming what is wrong and the
 * runs keep training; so does a valid one that computes without end (it is stopped at the time limit, in its own
 * worker, while the runs step); a valid one becomes "custom" and a run switched to it trains on it.
 */

const grpo = testExperiment().runs[2];
const RUNS = [
  { ...grpo, id: "grpo-proxy", label: "GRPO proxy", config: { ...grpo.config, reward: "proxy" } },
  { ...grpo, id: "grpo-gold", label: "GRPO gold" },
];

/** The experiment's link (src/lab/url.ts format; built here as e2e/lab.spec.ts's testLink does). */
function testLink(): string {
  const { task, model, seed } = testExperiment();
  const payload = {
    v: 1,
    task,
    model,
    seed,
    runs: RUNS.map(({ id, algo, label, config }) => ({ id, algo, label, config })),
  };
  return `#s=${LZString.compressToEncodedURIComponent(JSON.stringify(payload))}`;
}

/** The raw values the reward chart plots for one run and metric (its data table). */
async function plotted(page: Page, runId: string, metric: string): Promise<(number | null)[]> {
  const row = page.locator(
    `[data-testid="chart-data-reward"] tr[data-run="${runId}"][data-metric="${metric}"]`,
  );
  if ((await row.count()) === 0) return [];
  return JSON.parse((await row.first().getAttribute("data-raw")) ?? "[]");
}

const step = async (page: Page, id: string) => Number(await page.getByTestId(`step-${id}`).textContent());

async function stepAll(page: Page, to: number) {
  await page.getByTestId("step-once").click();
  for (const r of RUNS)
    await expect(page.getByTestId(`step-${r.id}`)).toHaveText(String(to), { timeout: 240_000 });
}

test("a run optimises the proxy RM (reward ≠ reward_gold); a bad .onnx is refused by name, a good one is used", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const pageErrors = await openExperiment(page, testLink());
  // The run cards say what each run optimises.
  await expect(page.getByTestId("knob-grpo-proxy-reward")).toHaveValue("proxy");
  await expect(page.getByTestId("knob-grpo-gold-reward")).toHaveValue("gold");
  for (const r of RUNS) await expect(page.getByTestId(`status-${r.id}`)).toHaveText("ready");

  for (let s = 1; s <= 3; s++) await stepAll(page, s);
  for (const r of RUNS) await expect(page.getByTestId(`status-${r.id}`)).toHaveText("paused");
  await expect.poll(async () => (await plotted(page, "grpo-proxy", "reward")).length).toBe(3);
  const reward = await plotted(page, "grpo-proxy", "reward");
  const gold = await plotted(page, "grpo-proxy", "reward_gold");
  expect(gold).toHaveLength(3);
  for (const [i, v] of reward.entries()) {
    expect(typeof v === "number" && Number.isFinite(v), `reward ${reward}`).toBe(true);
    expect(typeof gold[i] === "number" && Number.isFinite(gold[i]), `gold ${gold}`).toBe(true);
    expect(v, `step ${i + 1}: proxy reward vs gold`).not.toBe(gold[i]);
  }
  // The gold run draws one line: its reward is its gold score (a dashed copy would lie under it).
  await expect.poll(async () => (await plotted(page, "grpo-gold", "reward")).length).toBe(3);
  expect(await plotted(page, "grpo-gold", "reward_gold")).toEqual([]);
  await page.mouse.move(0, 0);
  const shot = await page.screenshot({ path: "test-results/rewards-proxy.png" });
  await testInfo.attach("rewards-proxy", { body: shot, contentType: "image/png" });

  // A corrupt file: a notice naming what is wrong; the lab keeps working.
  const rm = await readFile("public/models/arithmetic/rm.onnx");
  await page.getByTestId("load-rm-file").setInputFiles({
    name: "broken.onnx",
    mimeType: "application/octet-stream",
    buffer: rm.subarray(0, 4000),
  });
  const notice = page.getByTestId("lab-notice");
  await expect(notice).toContainText('The reward model "broken.onnx" could not be loaded', {
    timeout: 60_000,
  });
  await expect(notice).toContainText(": the file is not an ONNX model");
  await expect(notice).not.toContainText("not-onnx");
  await expect(page.getByTestId("load-rm")).toHaveAccessibleName("Load reward model (.onnx)");
  // "custom" without a loaded model is offered disabled, saying what to do first; the run keeps its source.
  const customOption = page.getByTestId("knob-grpo-gold-reward").locator('option[value="custom"]');
  await expect(customOption).toBeDisabled();
  await expect(customOption).toHaveText("custom (load an .onnx with Load RM first)");
  await expect(page.getByTestId("knob-grpo-gold-reward")).toHaveValue("gold");
  await expect(page.getByTestId("knob-grpo-gold-reward")).toHaveValue("gold");
  await stepAll(page, 4);
  for (const r of RUNS) await expect(page.getByTestId(`status-${r.id}`)).toHaveText("paused");
  await page.mouse.move(0, 0);
  const bad = await page.screenshot({ path: "test-results/rewards-bad-onnx.png" });
  await testInfo.attach("rewards-bad-onnx", { body: bad, contentType: "image/png" });

  // A valid but hostile file: 4 KB that chain 60 products of 4096² matrices. It works in a worker of its own,
  // so the runs step meanwhile; at the time limit the lab ends that worker and says so.
  const busy = toyModel({ rows: 64, busyWork: { products: 60, size: 4096 } });
  const t0 = Date.now();
  await page.getByTestId("load-rm-file").setInputFiles({
    name: "busy.onnx",
    mimeType: "application/octet-stream",
    buffer: Buffer.from(busy),
  });
  await expect(page.getByTestId("load-rm")).toBeDisabled();
  await stepAll(page, 5);
  const stepped = (Date.now() - t0) / 1000;
  console.log(`step 5 of both runs done ${stepped.toFixed(1)} s after busy.onnx was chosen`);
  await expect(notice).toContainText(
    `The reward model "busy.onnx" could not be loaded: the reward model took longer than ${RM_TIME_LIMITS.loadMs / 1000} s to load and check, so the lab stopped it.`,
    { timeout: RM_TIME_LIMITS.loadMs + 60_000 },
  );
  const refused = (Date.now() - t0) / 1000;
  console.log(`busy.onnx refused ${refused.toFixed(1)} s after it was chosen`);
  expect(refused).toBeGreaterThanOrEqual(RM_TIME_LIMITS.loadMs / 1000);
  expect(stepped, "the runs step while the busy model is being checked").toBeLessThan(refused);
  await expect(page.getByTestId("load-rm")).toBeEnabled();

  // A valid file (the shipped RM under another name) becomes "custom"; the gold run switches to it.
  await page.getByTestId("load-rm-file").setInputFiles({
    name: "my_rm.onnx",
    mimeType: "application/octet-stream",
    buffer: rm,
  });
  await expect(notice).toContainText('Loaded the reward model "my_rm.onnx"', { timeout: 60_000 });
  await expect(page.getByTestId("load-rm")).toHaveAccessibleName(/my_rm\.onnx loaded/);
  await page.getByTestId("knob-grpo-gold-reward").selectOption("custom");
  await expect(page.getByTestId("knob-grpo-gold-reward")).toHaveValue("custom");
  await stepAll(page, 6);
  await expect.poll(async () => (await plotted(page, "grpo-gold", "reward")).length).toBe(6);
  const after = await plotted(page, "grpo-gold", "reward");
  const afterGold = await plotted(page, "grpo-gold", "reward_gold");
  expect(Number.isFinite(after[5])).toBe(true);
  expect(after[5], "custom RM score vs gold at step 6").not.toBe(afterGold[5]);
  expect(await step(page, "grpo-proxy")).toBe(6);
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  expect(pageErrors.map((e) => e.message)).toEqual([]);
});

test("a reward model too slow on real batches: the step stops at the time limit, and the run tries it again on another reward", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const pageErrors = await openExperiment(page, testLink());
  // Seconds on the loader's 2 × 4 probe (24 products of 768² matrices); on a real batch of B·T ≈ 30 tokens, 24 of
  // 2880² (over a TFLOP).
  const slow = toyModel({ rows: 64, busyPerToken: { products: 24, perToken: 96 } });
  await page.getByTestId("load-rm-file").setInputFiles({
    name: "slow.onnx",
    mimeType: "application/octet-stream",
    buffer: Buffer.from(slow),
  });
  const notice = page.getByTestId("lab-notice");
  await expect(notice).toContainText('Loaded the reward model "slow.onnx"', { timeout: 120_000 });
  await stepAll(page, 1); // a run at step 0 starts over on any settings change: the retry is for later steps
  await page.getByTestId("knob-grpo-gold-reward").selectOption("custom");
  await expect(page.getByTestId("knob-grpo-gold-reward")).toHaveValue("custom");

  await page.getByTestId("step-once").click();
  const error = page.getByTestId("error-grpo-gold");
  await expect(error).toContainText(
    `step 2 failed: the reward model took longer than ${RM_TIME_LIMITS.runMs / 1000} s to score a batch of`,
    { timeout: RM_TIME_LIMITS.runMs + 120_000 },
  );
  await expect(error).toContainText("so the lab stopped it");
  await expect(page.getByTestId("step-grpo-proxy")).toHaveText("2", { timeout: 120_000 });
  await expect(page.getByTestId("step-grpo-gold")).toHaveText("1");
  await expect(page.getByTestId("rewind-grpo-gold")).toHaveCount(0);
  // The Load RM button no longer says a model is loaded.
  await expect(page.getByTestId("load-rm")).toHaveAccessibleName("Load reward model (.onnx)");
  // Its model is gone: another run cannot choose it (offered disabled, saying what to do); the run on it shows
  // it still, with the error that says why.
  const proxyCustom = page.getByTestId("knob-grpo-proxy-reward").locator('option[value="custom"]');
  await expect(proxyCustom).toBeDisabled();
  await expect(proxyCustom).toHaveText("custom (load an .onnx with Load RM first)");
  await expect(page.getByTestId("knob-grpo-proxy-reward")).toHaveValue("proxy");
  await expect(page.getByTestId("knob-grpo-gold-reward").locator('option[value="custom"]')).toBeEnabled();

  // Another reward, then Try the step again: it trains on from where it was.
  await page.getByTestId("knob-grpo-gold-reward").selectOption("gold");
  await expect(page.getByTestId("knob-grpo-gold-reward")).toHaveValue("gold");
  await page.getByTestId("retry-grpo-gold").click();
  await expect(error).toHaveCount(0);
  await page.getByTestId("step-once").click(); // the run one step behind first
  await expect(page.getByTestId("step-grpo-gold")).toHaveText("2", { timeout: 240_000 });
  await expect(page.getByTestId("status-grpo-gold")).toHaveText("paused");
  await expect.poll(async () => (await plotted(page, "grpo-gold", "reward")).length).toBe(2);
  expect((await plotted(page, "grpo-gold", "reward")).every((v) => Number.isFinite(v))).toBe(true);
  await page.screenshot({ path: "test-results/rewards-retry.png" });
  expect(pageErrors.map((e) => e.message)).toEqual([]);
});
