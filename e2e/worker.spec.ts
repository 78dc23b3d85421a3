import { expect, type Page, test } from "@playwright/test";
import { testExperiment } from "../src/lab/defaults";
import { testLink } from "./links";
import { attributeFrames, longFramesSince, observeLongFrames } from "./long_frames";
import { collectPageErrors } from "./page";

/**
 * The training worker in the built app, on SwiftShader: the test-sized experiment (arithmetic, nano, tiny
 * batches; src/lab/defaults.ts) opened from its link, played; each of PPO, DPO and GRPO must plot ≥ 3 finite
 * points on the reward, KL and entropy charts (read from the charts' data tables). While it trains, the main
 * thread's long tasks (PerformanceObserver 'longtask'), what they were made of (./long_frames.ts: script time per
 * source and invoker — comlink's callback for the worker's updates, React's scheduler, recharts — and rendering)
 * and the charts' update rate are measured and attached.
 */

const RUNS = testExperiment().runs.map((r) => r.id);

const CHARTS = { reward: "reward", kl: "objective/kl", entropy: "entropy" } as const;
/** Training window measured after the first points appear. */
const MEASURE_MS = 20_000;

/** What the page-side probe keeps on window. */
interface Probe {
  __longTasks: { start: number; duration: number }[];
  __probe: { t0: number; frames: Set<number> };
}

/** Values one chart plots for one run and metric, from its data table. */
async function plotted(page: Page, chart: string, runId: string, metric: string): Promise<number[]> {
  const row = page.locator(
    `[data-testid="chart-data-${chart}"] tr[data-run="${runId}"][data-metric="${metric}"]`,
  );
  if ((await row.count()) === 0) return [];
  return JSON.parse((await row.first().getAttribute("data-raw")) ?? "[]");
}

test("three runs train in the worker and plot finite points on every chart; responsiveness is measured", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(300_000);
  const pageErrors = collectPageErrors(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  });
  await observeLongFrames(page);
  await page.goto(`/${testLink()}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 120_000 });
  for (const id of RUNS) await expect(page.getByTestId(`status-${id}`)).toHaveText(/ready/i);
  await expect(page.getByTestId("model")).toContainText("nano");

  // Until the first points: every "where the step is" line a run card shows (sent for steps over a second;
  // on SwiftShader the first, which compiles the pipelines, is). Disconnected before the measurement below.
  await page.evaluate(() => {
    const w = window as unknown as { __progress: Set<string>; __progressObs: MutationObserver };
    w.__progress = new Set();
    w.__progressObs = new MutationObserver(() => {
      for (const e of document.querySelectorAll('[data-testid^="progress-"]'))
        w.__progress.add(`${e.getAttribute("data-testid")}: ${e.textContent}`);
    });
    const lab = document.querySelector('[data-testid="lab"]');
    if (lab) w.__progressObs.observe(lab, { subtree: true, childList: true, characterData: true });
  });
  // Charts drawn for the first time in one task (one MutationObserver callback): the redraw queue draws a chart at
  // a time, its first drawing too (a dozen diagnostics appear at the first step). Kept to the end of the test.
  await page.evaluate(() => {
    const w = window as unknown as { __firstDraws: { max: number; total: number } };
    w.__firstDraws = { max: 0, total: 0 };
    new MutationObserver((records) => {
      let n = 0;
      for (const r of records)
        for (const node of r.addedNodes)
          if (node instanceof Element)
            n +=
              (node.matches('[data-testid^="chart-data-"]') ? 1 : 0) +
              node.querySelectorAll('[data-testid^="chart-data-"]').length;
      w.__firstDraws.max = Math.max(w.__firstDraws.max, n);
      w.__firstDraws.total += n;
    }).observe(document.body, { subtree: true, childList: true });
  });
  await page.getByTestId("play").click();
  // The first points arrive (pipelines compile on the first step).
  await expect
    .poll(
      async () =>
        Math.min(
          ...(await Promise.all(RUNS.map((id) => plotted(page, "reward", id, "reward")))).map(
            (v) => v.length,
          ),
        ),
      { timeout: 180_000 },
    )
    .toBeGreaterThanOrEqual(1);

  const progress = await page.evaluate(() => {
    const w = window as unknown as { __progress: Set<string>; __progressObs: MutationObserver };
    w.__progressObs.disconnect();
    return [...w.__progress];
  });
  console.log(`step progress seen: ${progress.join(" | ")}`);
  expect(progress.length, "a slow step says where it is").toBeGreaterThan(0);
  for (const line of progress) {
    // The stage, then how long the step has run ("12 s", "1 min 05 s"): shown only after its first second.
    const m =
      /^progress-(\S+): (?:sampling (\d+)\/(\d+) tokens|scoring|update (\d+)\/(\d+)|updating)(?:(\d+) min )?(\d+) s$/.exec(
        line,
      );
    expect(m, line).not.toBeNull();
    expect(RUNS, line).toContain(m?.[1]);
    if (m?.[2]) expect(Number(m[2]), line).toBeLessThan(Number(m[3]));
    if (m?.[4]) expect(Number(m[4]), line).toBeLessThanOrEqual(Number(m[5]));
    expect(60 * Number(m?.[6] ?? 0) + Number(m?.[7]), line).toBeGreaterThanOrEqual(1);
  }

  // Measure over MEASURE_MS of wall time (timed from Node: a busy main thread would delay a page timer): the
  // main thread's long tasks, and the animation frames in which the reward chart's data changed.
  await page.evaluate(() => {
    const w = window as unknown as Probe;
    const table = document.querySelector('[data-testid="chart-data-reward"]');
    if (!table) throw new Error("no reward chart");
    w.__probe = { t0: performance.now(), frames: new Set<number>() };
    new MutationObserver(() =>
      w.__probe.frames.add(Math.floor((performance.now() - w.__probe.t0) / 16)),
    ).observe(table, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  const wall0 = Date.now();
  await page.waitForTimeout(MEASURE_MS);
  const measured = await page.evaluate(() => {
    const w = window as unknown as Probe;
    const long = w.__longTasks.filter((e) => e.start >= w.__probe.t0);
    return {
      chartUpdates: w.__probe.frames.size,
      longTasks: long.length,
      longestTaskMs: Math.round(Math.max(0, ...long.map((e) => e.duration))),
      t0: w.__probe.t0,
    };
  });
  const seconds = (Date.now() - wall0) / 1000;
  const { t0, ...counts } = measured;
  const report = {
    seconds,
    ...counts,
    chartUpdateHz: Number((measured.chartUpdates / seconds).toFixed(2)),
    ...(await attributeFrames(request, await longFramesSince(page, t0))),
  };
  console.log(`worker e2e: ${JSON.stringify(report)}`);
  await testInfo.attach("responsiveness", {
    body: JSON.stringify(report, null, 2),
    contentType: "application/json",
  });
  // Never a silent stall: the charts kept changing while the runs trained. (The < 50 ms / ≥ 2 Hz targets are
  // reported, not asserted: on a shared software adapter the page's own rendering competes with SwiftShader.)
  expect(measured.chartUpdates, "reward chart updates while training").toBeGreaterThanOrEqual(3);

  for (const id of RUNS)
    for (const [chart, metric] of Object.entries(CHARTS)) {
      await expect
        .poll(async () => (await plotted(page, chart, id, metric)).length, {
          timeout: 120_000,
          message: `${id} ${metric}`,
        })
        .toBeGreaterThanOrEqual(3);
      const values = await plotted(page, chart, id, metric);
      expect(
        values.every((v) => Number.isFinite(v)),
        `${id} ${metric}: ${values}`,
      ).toBe(true);
    }

  await page.getByTestId("play").click();
  for (const id of RUNS)
    await expect(page.getByTestId(`status-${id}`)).toHaveText(/paused/i, { timeout: 60_000 });
  // The paused lab's charts scrolled away catch up now, one at a time as well.
  await page.waitForTimeout(3000);
  const firstDraws = await page.evaluate(
    () => (window as unknown as { __firstDraws: { max: number; total: number } }).__firstDraws,
  );
  console.log(`chart tables added: ${firstDraws.total}, at most ${firstDraws.max} in one task`);
  expect(firstDraws.total, "charts drawn").toBeGreaterThanOrEqual(3);
  expect(firstDraws.max, "charts drawn in one task").toBeLessThanOrEqual(1);
  const shot = await page.screenshot({ path: "test-results/worker-training.png", fullPage: true });
  await testInfo.attach("worker-training", { body: shot, contentType: "image/png" });
  expect(pageErrors.map(String)).toEqual([]);
});
