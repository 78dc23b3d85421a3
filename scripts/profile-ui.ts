/**
 * Where the page's main-thread time goes while runs train (issue 6's "no main-thread task over 50 ms").
 *
 *   npx vite build --minify false --outDir dist-profile
 *   npm run profile-ui -- [--seconds 20] [--view charts|more|samples] [--port 4600] [--dist dist-profile]
 *                        [--save main.cpuprofile] [--shot view.png]
 *   npm run profile-ui -- --from main.cpuprofile [--dist dist-profile]   (summarise a saved profile again)
 *   VITE_LAB_FAKE=1 npx vite build --minify false --outDir dist-fake
 *   npm run profile-ui -- --fake yes --dist dist-fake [--view …]   (the page's own cost: no training at all)
 *
 * Serves the build (unminified, so the profile keeps function names) with `vite preview`, opens the test-sized experiment (src/lab/defaults.ts testExperiment) in the
 * same Chromium and flags as the e2e tests, presses Play, waits for the first points, scrolls to the chosen
 * part of the page (charts are redrawn only while on screen) and then records, for --seconds of training:
 * - the main thread's long tasks (PerformanceObserver 'longtask': count, longest, total);
 * - each chart's redraws (frames in which its data table changed), the main-thread ms per redraw, and each
 *   run's steps in the window;
 * - a V8 CPU profile of the main thread (CDP Profiler, 0.5 ms sampling), summarised as self time per
 *   function and per source (our src/ files, react-dom, recharts, …), over the whole window and over the busy
 *   stretches ≥ 50 ms (consecutive non-idle samples: what the long tasks are made of).
 * With --fake yes the page runs its development stand-in for the worker (src/ui/lab/dev_fake.ts: synthetic
 * metrics and samples for every run, 4 steps a second each, no GPU work), so what is measured is the page's own
 * drawing, with no GPU process competing for the cores: the part of issue 6's 50 ms budget our UI code owns.
 * Prints one JSON object. A measurement, not a test: on SwiftShader the GPU process competes for the same
 * cores, so quote its shares, not its absolute times.
 * Its options are checked before the server starts (cli/args.ts): `--help` prints the usage; an unknown option,
 * a malformed number or view, or a --save / --shot path it cannot write is refused (exit 2).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { type Browser, chromium } from "@playwright/test";
import { checkedInput, realNumber, scriptArgs, wholeNumber, writableFile } from "../cli/args";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { linkOf } from "../e2e/links";
import { testExperiment } from "../src/lab/defaults";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const USAGE =
  "usage: npm run profile-ui -- [--seconds 20] [--view charts|more|samples] [--port 4600] [--dist dist-profile] [--save main.cpuprofile] [--shot view.png] [--fake yes|no]\n       npm run profile-ui -- --from main.cpuprofile [--dist dist-profile]";

const VIEWS = ["charts", "more", "samples"] as const;

/** The command line, checked before any work: exits 0 on --help, 2 on anything it cannot use. */
export function profileOptions() {
  const { values } = scriptArgs(USAGE, {
    options: {
      seconds: { type: "string" },
      view: { type: "string" },
      port: { type: "string" },
      dist: { type: "string" },
      save: { type: "string" },
      shot: { type: "string" },
      from: { type: "string" },
      fake: { type: "string" },
    },
  });
  return checkedInput(() => {
    const view = values.view ?? "charts";
    if (!(VIEWS as readonly string[]).includes(view))
      throw new RangeError(`--view must be one of ${VIEWS.join("|")}, got "${view}"`);
    if (values.fake !== undefined && values.fake !== "yes" && values.fake !== "no")
      throw new RangeError(`--fake must be yes or no, got "${values.fake}"`);
    if (values.from !== undefined && !existsSync(values.from))
      throw new RangeError(`--from ${values.from}: no such file`);
    if (values.save !== undefined) writableFile("save", values.save);
    if (values.shot !== undefined) writableFile("shot", values.shot);
    return {
      seconds: realNumber("seconds", values.seconds, 20, 1, 3600),
      view: view as (typeof VIEWS)[number],
      port: wholeNumber("port", values.port, 4600, 1, 65535),
      dist: values.dist ?? "dist-profile",
      save: values.save,
      shot: values.shot,
      from: values.from,
      fake: values.fake === "yes",
    };
  });
}

/** Maps a frame (bundle URL, 0-based line) to the module it came from, e.g. "recharts/es6/cartesian/Line.js". */
type Resolve = (url: string, line: number) => string;

/**
 * A resolver built from the bundles' module comments: an unminified Vite build starts each module with a
 * `// node_modules/recharts/es6/…` or `// src/ui/…` line.
 */
export function moduleResolver(bundles: Map<string, string>): Resolve {
  const starts = new Map<string, { line: number; path: string }[]>();
  for (const [url, text] of bundles) {
    const list: { line: number; path: string }[] = [];
    text.split("\n").forEach((l, i) => {
      const m = l.match(/^\/\/ ((?:node_modules|src|\.\.?)\/\S+\.(?:m?js|tsx?|wgsl|json))$/);
      if (m) list.push({ line: i, path: m[1].replace(/^node_modules\//, "") });
    });
    starts.set(url, list);
  }
  return (url, line) => {
    if (!url) return "(native)";
    const list = starts.get(url);
    if (!list?.length) return url.split("/").pop() ?? url;
    let lo = 0;
    let hi = list.length - 1;
    if (line < list[0].line) return "(bundle prologue)";
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid].line <= line) lo = mid;
      else hi = mid - 1;
    }
    return list[lo].path;
  };
}

/** A module's package ("recharts", "react-dom") or, for our code, its folder ("src/ui/lab"). */
function packageOf(module: string): string {
  if (module.startsWith("src/")) return module.split("/").slice(0, -1).join("/");
  if (module.startsWith("(")) return module;
  const parts = module.split("/");
  return module.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Self time (ms) per key, largest first, the top `n`. */
function top(times: Map<string, number>, n: number): [string, number][] {
  return [...times.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => [k, Math.round(v)]);
}

/** Sums self time per function and per source, over all samples and over busy stretches ≥ `longMs`. */
export function summarise(p: CpuProfile, resolve: Resolve, longMs = 50) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"} ${resolve(n.callFrame.url, n.callFrame.lineNumber)}`;
  // Inclusive time: each function once per sampled stack.
  const inclusive = new Map<string, number>();
  const idle = (n: ProfileNode) => n.callFrame.functionName === "(idle)";
  const fresh = () => ({
    fn: new Map<string, number>(),
    mod: new Map<string, number>(),
    pkg: new Map<string, number>(),
  });
  const all = fresh();
  const busy = fresh();
  const add = (into: typeof all, n: ProfileNode, ms: number) => {
    const f = label(n);
    into.fn.set(f, (into.fn.get(f) ?? 0) + ms);
    const m = resolve(n.callFrame.url, n.callFrame.lineNumber);
    into.mod.set(m, (into.mod.get(m) ?? 0) + ms);
    into.pkg.set(packageOf(m), (into.pkg.get(packageOf(m)) ?? 0) + ms);
  };
  let stretch: { node: ProfileNode; ms: number }[] = [];
  const stretches: number[] = [];
  const close = () => {
    const ms = stretch.reduce((a, s) => a + s.ms, 0);
    if (ms >= longMs) {
      stretches.push(ms);
      for (const s of stretch) add(busy, s.node, s.ms);
    }
    stretch = [];
  };
  let idleMs = 0;
  let totalMs = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i]);
    // A sample's time is the gap to the next one.
    const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
    if (!node) continue;
    totalMs += ms;
    if (idle(node)) {
      idleMs += ms;
      close();
      continue;
    }
    add(all, node, ms);
    stretch.push({ node, ms });
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      if (n?.callFrame.url) seen.add(label(n));
    }
    for (const f of seen) inclusive.set(f, (inclusive.get(f) ?? 0) + ms);
  }
  close();
  return {
    windowMs: Math.round(totalMs),
    busyShare: Number((1 - idleMs / Math.max(totalMs, 1)).toFixed(3)),
    busyStretches: stretches.length,
    longestStretchMs: Math.round(Math.max(0, ...stretches)),
    byPackage: top(all.pkg, 12),
    byModule: top(all.mod, 20),
    byFunction: top(all.fn, 20),
    inclusive: top(inclusive, 40),
    inLongStretches: {
      byPackage: top(busy.pkg, 12),
      byModule: top(busy.mod, 20),
      byFunction: top(busy.fn, 20),
    },
  };
}

/** The served bundles a profile's frames point into, read from the build folder. */
function bundlesOf(profile: CpuProfile, dist: string): Map<string, string> {
  const bundles = new Map<string, string>();
  for (const url of new Set(profile.nodes.map((n) => n.callFrame.url))) {
    if (!/^https?:\/\/localhost:\d+\/.*\.js$/.test(url)) continue;
    const file = join(dist, new URL(url).pathname);
    if (existsSync(file)) bundles.set(url, readFileSync(file, "utf8"));
  }
  return bundles;
}

/** Whether something already listens on localhost:`port` (then the page measured would be its, not `dist`'s). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "localhost");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Whether a build kept the development fake backend (a VITE_LAB_FAKE=1 build has its chunk). */
function hasFakeChunk(dist: string): boolean {
  const assets = join(dist, "assets");
  return existsSync(assets) && readdirSync(assets).some((f) => f.startsWith("dev_fake"));
}

async function main() {
  const { seconds, view, port, dist, save, shot, from, fake } = profileOptions();
  if (from) {
    // Summarise a saved profile again (same build folder).
    const profile = JSON.parse(readFileSync(from, "utf8")) as CpuProfile;
    console.log(JSON.stringify(summarise(profile, moduleResolver(bundlesOf(profile, dist))), null, 1));
    return;
  }
  if (fake && !hasFakeChunk(dist))
    throw new Error(`${dist} has no fake backend: build it with VITE_LAB_FAKE=1 (see the header)`);
  if (await portTaken(port))
    throw new Error(`port ${port} is taken (a server left running?): pick another with --port`);
  // Its own process group, so that the npx wrapper and the vite server under it stop together.
  const server: ChildProcess = spawn(
    "npx",
    ["vite", "preview", "--port", String(port), "--strictPort", "--outDir", dist],
    { stdio: "ignore", detached: true },
  );
  const stopServer = () => {
    try {
      if (server.pid) process.kill(-server.pid);
    } catch {
      // Already gone.
    }
  };
  // Ctrl-C reaches this process only (the server has its own group): stop the server too.
  process.once("SIGINT", () => {
    stopServer();
    process.exit(130);
  });
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => {
      const w = window as unknown as { __long: { start: number; duration: number }[] };
      w.__long = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__long.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: "longtask", buffered: true });
    });
    for (let i = 0; ; i++) {
      try {
        await page.goto(`http://localhost:${port}/${fake ? "?fake" : ""}${linkOf(testExperiment())}`);
        break;
      } catch (e) {
        if (i > 30) throw e;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    await page.getByTestId("lab").and(page.locator('[data-phase="ready"]')).waitFor({ timeout: 120_000 });
    await page.getByTestId("play").click();
    await page
      .locator('[data-testid="chart-data-reward"] tr[data-metric="reward"]')
      .first()
      .waitFor({ state: "attached", timeout: 180_000 });
    if (view !== "charts") {
      // Wait for the section's content (the samples above it grow as completions arrive, so scroll late).
      const section = view === "more" ? "more-metrics" : "samples";
      if (view === "more")
        await page
          .locator('[data-testid="more-metrics"] [data-testid^="chart-data-"]')
          .first()
          .waitFor({ state: "attached" });
      await page.waitForTimeout(2000);
      await page.getByTestId(section).evaluate((e) => e.scrollIntoView({ block: "start" }));
    }
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
    const stepsNow = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[data-testid^="step-"]:not([data-testid="step-once"])')].map((e) =>
          Number((e.textContent ?? "").replace(/\D/g, "")),
        ),
      );
    const steps0 = await stepsNow();
    // Redraws per chart: animation frames in which its data table (what it plots) changed.
    const t0 = await page.evaluate(() => {
      const w = window as unknown as { __redraws: Record<string, Set<number>> };
      w.__redraws = {};
      const start = performance.now();
      for (const table of document.querySelectorAll('[data-testid^="chart-data-"]')) {
        const id = (table.getAttribute("data-testid") ?? "").replace("chart-data-", "");
        const frames = new Set<number>();
        w.__redraws[id] = frames;
        new MutationObserver(() => frames.add(Math.floor((performance.now() - start) / 16))).observe(table, {
          subtree: true,
          attributes: true,
          childList: true,
          characterData: true,
        });
      }
      return start;
    });
    await cdp.send("Profiler.start");
    await page.waitForTimeout(seconds * 1000);
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
    if (save) writeFileSync(save, JSON.stringify(profile));
    const long = await page.evaluate(
      (since) =>
        (window as unknown as { __long: { start: number; duration: number }[] }).__long.filter(
          (e) => e.start >= since,
        ),
      t0,
    );
    const redraws = await page.evaluate(() =>
      Object.fromEntries(
        Object.entries((window as unknown as { __redraws: Record<string, Set<number>> }).__redraws).map(
          ([id, frames]) => [id, frames.size],
        ),
      ),
    );
    const steps = (await stepsNow()).map((n, i) => n - (steps0[i] ?? 0));
    if (shot) await page.screenshot({ path: shot });
    await page.getByTestId("play").click();
    const summary = summarise(profile, moduleResolver(bundlesOf(profile, dist)));
    const redrawCount = Object.values(redraws).reduce((a, n) => a + n, 0);
    console.log(
      JSON.stringify(
        {
          view,
          backend: fake ? "fake (no training)" : "worker",
          seconds,
          longTasks: long.length,
          longestTaskMs: Math.round(Math.max(0, ...long.map((e) => e.duration))),
          longTaskTotalMs: Math.round(long.reduce((a, e) => a + e.duration, 0)),
          // Each long task: when (ms after the window opened) and how long (ms).
          longTaskList: long.map((e) => [Math.round(e.start - t0), Math.round(e.duration)]),
          redraws,
          // Main-thread time per chart redraw: the comparable number when the redraw queue is saturated (then
          // the busy share only says the queue filled the time there was).
          msPerRedraw: Number(((summary.busyShare * summary.windowMs) / Math.max(1, redrawCount)).toFixed(1)),
          stepsInWindow: steps,
          profile: summary,
        },
        null,
        1,
      ),
    );
  } finally {
    await browser?.close();
    stopServer();
  }
}

if (process.argv[1]?.endsWith("profile-ui.ts")) await main();
