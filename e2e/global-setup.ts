/**
 * Playwright's globalSetup: the page's GPU checks, run once per `playwright test` instead of at every test's first
 * load. A fresh profile runs the 47-check kernel self-test and the matmul throughput (kept in localStorage,
 * src/ui/gpu_checks_kept.ts) and the training worker times the matmul kernels (kept in IndexedDB,
 * src/lab/kernel_choice.ts): ~10–14 s before the lab is ready on SwiftShader, ~3 s with both kept. This opens
 * the built app once, against the same preview server, in the same browser as the tests (the kept checks name
 * the build, the user agent and the adapter), on the default experiment and on the test-sized one (the kernel
 * pick is kept per matmul shape: the shipped model's and `nano`'s), and saves a storage state holding those two
 * records and nothing else (no saved experiment) to {@link WARM_STATE}, the tests' `use.storageState`.
 *
 * Generated afresh by every run (never committed; test-results/ is git-ignored). Tests that need a fresh profile
 * say `test.use({ storageState: { cookies: [], origins: [] } })`. If the warm-up cannot finish (the lab never
 * gets ready, the self-test fails: then nothing is kept), it says so and the tests start from an empty profile,
 * where the test that checks that part fails with its own message.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type FullConfig, type Page } from "@playwright/test";
import { testLink } from "./links";

/** The storage state the tests start from (playwright.config.ts `use.storageState`). */
export const WARM_STATE = fileURLToPath(new URL("../test-results/warm-gpu-checks.json", import.meta.url));

/** The kept self-test and throughput (src/ui/gpu_checks_kept.ts STORAGE_KEY). */
const CHECKS_KEY = "rlhf-playground.gpu-checks";

/** The kept kernel picks (src/lab/kernel_choice.ts KERNEL_DB_NAME; that module imports WGSL, which Node cannot). */
const KERNEL_DB_NAME = "rlhf-playground-kernels";

/** As e2e/app.spec.ts allows the self-test on a busy software adapter. */
const CHECKS_TIMEOUT = 400_000;

/** A storage state as `storageState({ indexedDB: true })` writes it (Playwright's type leaves IndexedDB out). */
interface StorageState {
  cookies: unknown[];
  origins: {
    origin: string;
    localStorage: { name: string; value: string }[];
    indexedDB?: { name: string; stores?: { records?: unknown[] }[] }[];
  }[];
}

/** Open `url` and wait until the lab is ready and the worker's kernel pick is kept (or failed to be). */
async function openAndPick(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('[data-testid="lab"][data-phase="ready"]').waitFor({ timeout: 180_000 });
  // The performance card names the pick once pickLabKernels has returned, after it was written to IndexedDB.
  await page
    .locator('[data-testid="perf-kernel"][data-from]')
    .waitFor({ state: "attached", timeout: 60_000 });
}

/** The page's checks once kept in localStorage: true, or false when the self-test failed (never kept). */
async function checksKept(page: Page): Promise<boolean> {
  const handle = await page.waitForFunction(
    (key) => {
      if (localStorage.getItem(key) !== null) return "kept";
      return document.querySelector('[data-testid="selftest"]')?.getAttribute("data-status") === "failed"
        ? "failed"
        : false;
    },
    CHECKS_KEY,
    { timeout: CHECKS_TIMEOUT, polling: 500 },
  );
  return (await handle.jsonValue()) === "kept";
}

/** `state` with only the kept checks and the kernel picks. */
function onlyTheChecks(state: StorageState): StorageState {
  const origins = state.origins
    .map((o) => ({
      ...o,
      localStorage: o.localStorage.filter((x) => x.name === CHECKS_KEY),
      indexedDB: (o.indexedDB ?? []).filter((d) => d.name === KERNEL_DB_NAME),
    }))
    .filter((o) => o.localStorage.length > 0 || o.indexedDB.length > 0);
  return { cookies: [], origins };
}

export default async function globalSetup(config: FullConfig): Promise<void> {
  rmSync(WARM_STATE, { force: true });
  mkdirSync(dirname(WARM_STATE), { recursive: true });
  const { baseURL, launchOptions, headless } = config.projects[0].use;
  const t0 = Date.now();
  const browser = await chromium.launch({ ...launchOptions, headless });
  let state: StorageState = { cookies: [], origins: [] };
  try {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await openAndPick(page, "/");
    const kept = await checksKept(page);
    await page.close();
    const test = await context.newPage();
    await openAndPick(test, `/${testLink()}`);
    await test.close();
    state = onlyTheChecks((await context.storageState({ indexedDB: true })) as StorageState);
    const picks = state.origins
      .flatMap((o) => o.indexedDB ?? [])
      .flatMap((d) => d.stores ?? [])
      .reduce((n, st) => n + (st.records?.length ?? 0), 0);
    console.log(
      `e2e warm-up: GPU checks ${kept ? "kept" : "not kept (the self-test failed)"}, ${picks} kernel picks kept, in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  } catch (e) {
    console.log(`e2e warm-up failed, the tests start from an empty profile: ${(e as Error).message}`);
  } finally {
    await browser.close();
  }
  writeFileSync(WARM_STATE, JSON.stringify(state));
}
