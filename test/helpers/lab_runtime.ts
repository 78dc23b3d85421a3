/**
 * The lab's worker runtime without the worker, for GPU tests (test/lab/runs.test.ts, run_state.test.ts): a fetch
 * that serves public/ as the page's static server would, and the test experiment's runs on a scheduler.
 */
import { readFile } from "node:fs/promises";
import { testExperiment } from "../../src/lab/defaults";
import type { ExperimentSpec, RunUpdate } from "../../src/lab/protocol";
import { loadResources } from "../../src/lab/resources";
import { LabRuns } from "../../src/lab/runs";
import { Scheduler } from "../../src/lab/scheduler";
import { testGpu } from "./gpu";

export const BASE = "http://lab.test/";

/** A preference file in src/tasks/preferences.ts's format with two arithmetic train pairs. */
export const PREFS = [
  { prompt: "12+34=", chosen: "46", rejected: "45", score_chosen: 1, score_rejected: 0 },
  { prompt: "50+27=", chosen: "77", rejected: "7", score_chosen: 1, score_rejected: 0 },
]
  .map((r) => JSON.stringify({ task: "arithmetic", ...r, flipped: false, tie: false, split: "train" }))
  .join("\n");

/**
 * fetch as the page's static server answers: the tokenizers from public/, `extra` files by path, 404 for the
 * rest (so the tests do not depend on which models are shipped at the moment).
 */
export function serve(extra: Record<string, string> = {}): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    const path = new URL(String(input)).pathname;
    if (path in extra) return new Response(extra[path], { status: 200 });
    if (path.endsWith("/tokenizer.json"))
      return new Response(await readFile(`public${path}`), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    return new Response("not found", { status: 404 });
  }) as typeof fetch;
}
export const publicFetch = serve();

export async function setup(spec: ExperimentSpec = testExperiment()) {
  const ctx = await testGpu();
  const res = await loadResources(spec, BASE, publicFetch);
  const runs = new LabRuns(ctx, res, spec.seed);
  const updates: RunUpdate[] = [];
  const s = new Scheduler({ factory: runs, onUpdate: (u) => updates.push(...u), flushMs: 0 });
  for (const r of spec.runs) await s.addRun(r, true);
  return { ctx, res, runs, s, updates, spec };
}
