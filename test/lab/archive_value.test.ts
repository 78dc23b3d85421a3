/**
 * Which kept experiment a full list forgets (src/lab/archive.ts keepIn, toForget), on fake-indexeddb: the one
 * holding the least training, the one being kept included, never just the oldest; and what the notices then say.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { ARCHIVE_MAX } from "../../src/lab/archive";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence, type SavedPipeline, type SavedSession } from "../../src/lab/persist";
import { droppedText } from "../../src/ui/lab/experiment_names";
import { savedHereLine } from "../../src/ui/lab/saving_lines";
import { keepReplaced, setAsideLine } from "../../src/ui/lab/session_keep";

let dbCount = 0;
const freshDb = () => openLabPersistence(`archive-value-test-${dbCount++}`);

/** A session of seed `seed` whose runs (PPO, DPO, GRPO) trained `steps[i]` steps; `comparison`: those imported instead. */
function trained(seed: number, steps: number[], comparison = false): SavedSession {
  const spec = { ...defaultExperiment(), seed };
  return {
    spec,
    runs: spec.runs.map((run, i) => {
      const n = steps[i] ?? 0;
      const imported = comparison && i < steps.length;
      const history = Array.from({ length: n }, (_, k) => ({
        step: k + 1,
        samples: 8,
        tokens: 80,
        metrics: { reward: seed + k },
      }));
      return {
        spec: run,
        status: "paused" as const,
        step: imported ? 0 : n,
        history,
        markers: [],
        checkpoint:
          n > 0 && !imported
            ? { runId: run.id, bytes: new Uint8Array([seed]), step: n, samples: 8, tokens: 80, savedAt: 1 }
            : null,
        ...(imported && { comparison: true as const }),
      };
    }),
  };
}

const pipelineOf = (s: SavedSession): SavedPipeline => ({
  models: { task: s.spec.task } as never,
  view: {},
  savedAt: 5,
});

/** The seeds listed, in their order of keeping (oldest first). */
async function seeds(db: Awaited<ReturnType<typeof freshDb>>): Promise<number[]> {
  return (await db.archive.list()).map((e) => e.spec.seed).reverse();
}

/** A full list: seed 0 holds Pipeline models and 3 × 262 steps and is the oldest; seed 3 holds the least (3). */
async function fullList() {
  const db = await freshDb();
  const big = trained(0, [262, 262, 262]);
  await db.archive.keep(big, pipelineOf(big), 1);
  const rest = [[10, 0, 10], [30], [3], [30], [30]];
  for (const [i, steps] of rest.entries()) await db.archive.keep(trained(i + 1, steps), null, 2 + i);
  expect(await seeds(db)).toEqual([0, 1, 2, 3, 4, 5]);
  expect(ARCHIVE_MAX).toBe(6);
  return db;
}

describe("a full list of kept experiments", () => {
  it("forgets the one holding the least training, not the oldest: 10 steps never push out 262", async () => {
    const db = await fullList();
    const kept = await db.archive.keep(trained(6, [10]), null, 100);
    expect(kept.kept).toBe(true);
    expect(kept.dropped.map((e) => e.spec.seed)).toEqual([3]);
    expect(await seeds(db)).toEqual([0, 1, 2, 4, 5, 6]);
    expect(await db.archive.get(kept.dropped[0].id)).toBeUndefined();
    expect(droppedText(kept.dropped)).toBe(
      " To make room (it keeps 6), this browser forgot the kept experiment with the least training " +
        "(Sentiment · shipped SFT model · seed 3: PPO at step 3).",
    );
    db.close();
  });

  it("does not keep a new one holding the least, says so, and changes nothing else", async () => {
    const db = await fullList();
    const before = (await db.archive.list()).map((e) => e.id);
    // One step: less than any kept one.
    const small = await db.archive.keep(trained(7, [1]), null, 100);
    expect(small.kept).toBe(false);
    expect(small.dropped).toEqual([]);
    expect(await db.archive.get(small.id)).toBeUndefined();
    expect((await db.archive.list()).map((e) => e.id)).toEqual(before);
    // The crash card's "Start without the saved runs" says so too.
    expect(setAsideLine(small)).toMatch(
      /PPO at step 1\); it was not kept \(the 6 kept experiments each hold more training\), and this one opens without it\.$/,
    );
    // Only two runs imported for comparison (0 steps trained here): "seed 1: PPO at step 10, GRPO at step 10" stays.
    const imported = trained(8, [5, 5], true);
    const line = (await keepReplaced(db, imported, null)).line ?? "";
    expect(line).toBe(
      "The experiment open before (Sentiment · shipped SFT model · seed 8: 2 runs imported for comparison) " +
        "was not kept: the 6 kept experiments each hold more training.",
    );
    expect((await db.archive.list()).map((e) => e.id)).toEqual(before);
    // Save here's notice says the same of the other tab's session.
    const other = await db.archive.keep(trained(9, [2]), null, 200);
    expect(savedHereLine(other)).toMatch(
      /What the other tab had saved \(Sentiment · shipped SFT model · seed 9: PPO at step 2\) was not kept: the 6 kept experiments each hold more training\.$/,
    );
    expect(savedHereLine(other)).not.toMatch(/is kept/);
    db.close();
  });

  it("a path that could not ask first (the crash card's set-aside, Save here) keeps it all the same", async () => {
    const db = await fullList();
    // One step, less than any kept one: kept anyway, and the least trained kept one (seed 3, 3 steps) goes.
    const kept = await db.archive.keep(trained(7, [1]), null, 100, true);
    expect(kept.kept).toBe(true);
    expect(kept.dropped.map((e) => e.spec.seed)).toEqual([3]);
    expect(await seeds(db)).toEqual([0, 1, 2, 4, 5, 7]);
    expect(setAsideLine(kept)).not.toMatch(/not kept/);
    db.close();
  });

  it("Pipeline models outrank any steps, and at equal training the older goes", async () => {
    const db = await freshDb();
    const piped = trained(0, [1]);
    await db.archive.keep(piped, pipelineOf(piped), 1); // the oldest, one step, but Pipeline models
    for (let seed = 1; seed < ARCHIVE_MAX; seed++) await db.archive.keep(trained(seed, [5]), null, 1 + seed);
    const kept = await db.archive.keep(trained(10, [5]), null, 100);
    expect(kept.dropped.map((e) => e.spec.seed)).toEqual([1]); // 5 steps like seeds 2–5 and the new one: older
    expect(await seeds(db)).toEqual([0, 2, 3, 4, 5, 10]);
    // A new one with Pipeline models and no trained run is kept; the least of the others goes.
    const bare = trained(11, []);
    const withModels = await db.archive.keep(bare, pipelineOf(bare), 200);
    expect([withModels.kept, withModels.dropped.map((e) => e.spec.seed)]).toEqual([true, [2]]);
    db.close();
  });
});
