/**
 * What the main thread's long animation frames were made of (Chromium's 'long-animation-frame' entries, Chrome
 * 123+): each script of 5 ms or more is mapped from its place in the built bundle back through the bundle's source
 * map to its source — a package under node_modules (React's `scheduler`, `comlink`, recharts' `@reduxjs/toolkit`)
 * or a file under src/ — so that a report can say which long tasks came from handling the training worker's
 * updates (comlink's callback) and which from rendering. Time not in such a script (smaller scripts, garbage
 * collection, a main thread waiting for a CPU) is the frame's remainder.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { SourceMapConsumer } from "source-map-js";

/** One script of a long frame: its invoker ("MessagePort.onmessage"), bundle URL and character position, ms. */
export interface FrameScript {
  invoker: string;
  url: string;
  pos: number;
  duration: number;
}

/** A long animation frame as the page keeps it: start and duration (ms), when rendering began, its scripts. */
export interface LongFrame {
  start: number;
  duration: number;
  renderStart: number;
  scripts: FrameScript[];
}

/** The fields of a PerformanceLongAnimationFrameTiming entry read here (not in TypeScript's DOM types yet). */
interface Entry {
  startTime: number;
  duration: number;
  renderStart: number;
  scripts: { invoker: string; sourceURL: string; sourceCharPosition: number; duration: number }[];
}

/** Start keeping the page's long animation frames on window.__frames (call before the page loads). */
export async function observeLongFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __frames: LongFrame[] };
    w.__frames = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as Entry[])
          w.__frames.push({
            start: e.startTime,
            duration: e.duration,
            renderStart: e.renderStart,
            scripts: e.scripts.map((x) => ({
              invoker: x.invoker,
              url: x.sourceURL,
              pos: x.sourceCharPosition,
              duration: x.duration,
            })),
          });
      }).observe({ type: "long-animation-frame", buffered: true });
    } catch {
      // A browser without the entry type: the report says no frames were seen.
    }
  });
}

/** The frames kept since `since` (performance.now() in the page). */
export function longFramesSince(page: Page, since: number): Promise<LongFrame[]> {
  return page.evaluate(
    (t0) => (window as unknown as { __frames: LongFrame[] }).__frames.filter((f) => f.start >= t0),
    since,
  );
}

/** "scheduler", "@reduxjs/toolkit" or "src/lab/autosave.ts" for a source-map source path. */
export function sourceLabel(source: string | null): string {
  if (!source) return "unmapped";
  const i = source.lastIndexOf("node_modules/");
  if (i >= 0) {
    const parts = source.slice(i + "node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const j = source.indexOf("src/");
  return j >= 0 ? source.slice(j) : source;
}

/** Maps a bundle URL and character position to its source label, fetching each bundle and its map once. */
async function sourceMapper(request: APIRequestContext, urls: readonly string[]) {
  const maps = new Map<string, { js: string; map: SourceMapConsumer } | null>();
  for (const url of new Set(urls)) {
    if (!/^https?:/.test(url)) {
      maps.set(url, null);
      continue;
    }
    const [js, map] = await Promise.all([request.get(url), request.get(`${url}.map`)]);
    maps.set(
      url,
      js.ok() && map.ok()
        ? { js: await js.text(), map: new SourceMapConsumer(JSON.parse(await map.text())) }
        : null,
    );
  }
  const seen = new Map<string, string>();
  return (url: string, pos: number): string => {
    const key = `${pos} ${url}`;
    const known = seen.get(key);
    if (known) return known;
    const m = maps.get(url);
    let out = url ? (url.split("/").pop() ?? url) : "unmapped";
    if (m && pos >= 0) {
      const before = m.js.slice(0, pos);
      const line = before.split("\n").length;
      const column = pos - before.lastIndexOf("\n") - 1;
      out = sourceLabel(m.map.originalPositionFor({ line, column }).source);
    }
    seen.set(key, out);
    return out;
  };
}

const rounded = (o: Record<string, number>, n: number) =>
  Object.fromEntries(
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => [k, Math.round(v)]),
  );

/**
 * Milliseconds of script per "source · invoker" over all frames (the `top` biggest) and in the longest frame,
 * the longest single script per source, and milliseconds of rendering (style, layout, paint after the scripts).
 */
export async function attributeFrames(request: APIRequestContext, frames: readonly LongFrame[], top = 6) {
  const label = await sourceMapper(
    request,
    frames.flatMap((f) => f.scripts.map((s) => s.url)),
  );
  const split = (f: LongFrame) => {
    const ms: Record<string, number> = {};
    for (const s of f.scripts) {
      const k = `${label(s.url, s.pos)} · ${s.invoker}`;
      ms[k] = (ms[k] ?? 0) + s.duration;
    }
    return { ms, render: f.renderStart > 0 ? f.start + f.duration - f.renderStart : 0 };
  };
  const total: Record<string, number> = {};
  const longestScript: Record<string, number> = {};
  let render = 0;
  for (const f of frames) {
    const s = split(f);
    for (const [k, v] of Object.entries(s.ms)) total[k] = (total[k] ?? 0) + v;
    for (const x of f.scripts) {
      const k = label(x.url, x.pos);
      longestScript[k] = Math.max(longestScript[k] ?? 0, x.duration);
    }
    render += s.render;
  }
  const longest = frames.reduce<LongFrame | null>((a, f) => (a && a.duration >= f.duration ? a : f), null);
  const l = longest && split(longest);
  return {
    longFrames: frames.length,
    scriptMs: rounded(total, top),
    longestScriptMs: rounded(longestScript, top),
    renderMs: Math.round(render),
    longestFrame: longest &&
      l && { ms: Math.round(longest.duration), scriptMs: rounded(l.ms, top), renderMs: Math.round(l.render) },
  };
}
