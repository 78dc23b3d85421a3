/**
 * By hand (not part of `npm test`): editing a module that holds the page's state under the dev server must
 * reload the page cleanly, not leave a half-updated lab (src/ui/hot_reload.ts). Starts `npx vite` on port 4481,
 * opens the test-sized experiment, presses Play, appends a comment to `HMR_FILE` (default src/ui/lab_store.ts),
 * and checks that the page reloads and is ready again with its run cards; the file is restored afterwards.
 *
 *   npx tsx e2e/dev_hmr_check.ts            # exit 0: reloaded and ready; 1: it was not (what was seen is printed)
 *   HMR_FILE=src/ui/client.ts npx tsx e2e/dev_hmr_check.ts
 *   HMR_FILE=src/ui/lab/StopAt.tsx HMR_EXPECT=refresh npx tsx e2e/dev_hmr_check.ts  # a component: Fast Refresh,
 *     no reload, still ready with its cards, and Vite printed no "Could not Fast Refresh"
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium";
import { testLink } from "./links";

const PORT = 4481;
const FILE = process.env.HMR_FILE ?? "src/ui/lab_store.ts";
const REFRESH = process.env.HMR_EXPECT === "refresh";
const READY = '[data-testid="lab"][data-phase="ready"]';
const CARD = '[data-testid^="run-card-"]';

async function serverUp(url: string, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the dev server did not answer at ${url} within ${limitMs / 1000} s`);
}

async function main(): Promise<number> {
  const said: string[] = [];
  const vite: ChildProcess = spawn("npx", ["vite", "--port", String(PORT), "--strictPort"], {
    stdio: "pipe",
    detached: true, // its own process group: npx, and the vite it starts, end together below
  });
  vite.on("exit", (code) => said.push(`vite exited with ${code}\n`));
  vite.stdout?.on("data", (d) => said.push(String(d)));
  vite.stderr?.on("data", (d) => said.push(String(d)));
  const original = readFileSync(FILE, "utf8");
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const base = `http://localhost:${PORT}/`;
    await serverUp(base, 60_000);
    const page = await browser.newPage();
    page.on("dialog", (d) => void d.accept()); // a "Leave site?" would otherwise hold the reload back
    let loads = 0;
    page.on("load", () => loads++);
    await page.goto(`${base}${testLink()}`);
    await page.waitForSelector(READY, { timeout: 240_000 });
    const cardsBefore = await page.locator(CARD).count();
    await page.getByTestId("play").click();
    await page.waitForTimeout(3000);
    const loadsBefore = loads;
    writeFileSync(FILE, `${original}\n// hmr check ${Date.now()}\n`);
    const t0 = Date.now();
    // Before the fix: within 2 s the phase went idle, the cards vanished, and no reload came.
    let reloaded = false;
    while (Date.now() - t0 < (REFRESH ? 15_000 : 60_000) && !reloaded) {
      await page.waitForTimeout(500);
      reloaded = loads > loadsBefore;
    }
    const phaseAfter = await page
      .locator('[data-testid="lab"]')
      .getAttribute("data-phase")
      .catch(() => null);
    if (REFRESH) {
      const cards = await page.locator(CARD).count();
      const remounted = said.join("").includes("Could not Fast Refresh");
      console.log(
        `reloaded: ${reloaded}; data-phase=${phaseAfter}, run cards ${cards}; remounted: ${remounted}`,
      );
      return !reloaded && !remounted && phaseAfter === "ready" && cards === cardsBefore ? 0 : 1;
    }
    if (!reloaded) {
      console.log(
        `NOT RELOADED after 60 s; data-phase=${phaseAfter}, run cards ${await page.locator(CARD).count()}`,
      );
      return 1;
    }
    await page.waitForSelector(READY, { timeout: 240_000 });
    const cardsAfter = await page.locator(CARD).count();
    console.log(
      `reloaded after ${((Date.now() - t0) / 1000).toFixed(1)} s; ready again with ${cardsAfter} run cards (before: ${cardsBefore})`,
    );
    return cardsAfter === cardsBefore && cardsAfter > 0 ? 0 : 1;
  } finally {
    writeFileSync(FILE, original);
    await browser.close();
    if (vite.pid) process.kill(-vite.pid, "SIGTERM");
    if (process.env.HMR_VERBOSE) console.log(said.join(""));
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
