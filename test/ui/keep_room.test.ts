/**
 * The ranking of kept experiments (src/lab/archive.ts toForget) and what the confirmations say before leaving
 * (src/ui/lab/keep_room.ts roomFor, saving_lines.ts keptLine): which kept one keeping this experiment forgets,
 * or that it would not be kept.
 */
import { describe, expect, it } from "vitest";
import { ARCHIVE_MAX, type ArchiveEntry, toForget } from "../../src/lab/archive";
import { defaultExperiment } from "../../src/lab/defaults";
import { hereOf, NO_ROOM, roomFor } from "../../src/ui/lab/keep_room";
import { keptLine } from "../../src/ui/lab/saving_lines";
import type { RunState } from "../../src/ui/lab_store";

/** A kept seed `seed` with PPO, DPO, GRPO at `steps`, kept at `savedAt`. */
function entry(seed: number, steps: number[], savedAt: number, pipeline = false): ArchiveEntry {
  const spec = { ...defaultExperiment(), seed };
  return {
    id: `e${seed}`,
    spec,
    runs: spec.runs.map((r, i) => ({ label: r.label, algo: r.algo, step: steps[i] ?? 0 })),
    pipeline,
    savedAt,
    signature: `${seed}`,
  };
}

/** Seed 0: Pipeline models and 3 × 262 steps, the oldest; seed 3 holds the least (3 steps). */
const FULL = [
  entry(0, [262, 262, 262], 1, true),
  entry(1, [10, 0, 10], 2),
  entry(2, [30], 3),
  entry(3, [3], 4),
  entry(4, [30], 5),
  entry(5, [30], 6),
];

/** The lab's runs of seed `seed`: PPO trained `step` steps; `imported`: DPO and GRPO imported with curves. */
function lab(seed: number, step: number, imported = false) {
  const spec = { ...defaultExperiment(), seed };
  const runs: Record<string, RunState> = {};
  for (const [i, r] of spec.runs.entries()) {
    const comparison = imported && i > 0;
    const n = i === 0 ? step : comparison ? 7 : 0;
    runs[r.id] = {
      spec: r,
      status: "paused",
      step: n,
      history: Array.from({ length: n }, (_, k) => ({ step: k + 1, samples: 1, tokens: 1, metrics: {} })),
      markers: [],
      samples: [],
      error: null,
      ...(comparison && { comparison: true }),
    } as RunState;
  }
  return { spec, runs };
}

describe("which kept experiment goes", () => {
  it("ranks by Pipeline models, then the runs' steps together, then age, the new one included", () => {
    expect(FULL).toHaveLength(ARCHIVE_MAX);
    // A 10-step one: seed 3 (3 steps) goes, not seed 0 (the oldest, 786 steps and Pipeline models).
    const ten = entry(6, [10], 100);
    expect(toForget(FULL, ten)).toEqual([FULL[3]]);
    // The new one holds the least: it is the one not kept.
    const one = entry(7, [1], 100);
    expect(toForget(FULL, one)).toEqual([one]);
    // Equal training: the older goes (the new one is the newest, so a kept one at a tie goes).
    const three = entry(8, [3], 100);
    expect(toForget(FULL, three)).toEqual([FULL[3]]);
    expect(toForget([entry(1, [3], 9), ...FULL.slice(1)], entry(9, [3], 100))).toEqual([FULL[3]]);
    // Pipeline models outrank any steps: with no trained run it stays, and a plain 262-step one goes.
    const piped = [entry(0, [], 1, true), ...FULL.slice(1).map((e) => ({ ...e, runs: FULL[0].runs }))];
    expect(toForget(piped, entry(9, [300, 300, 300], 100)).map((e) => e.spec.seed)).toEqual([1]);
    // Room left: nothing goes; a list already over: as many as needed, least first.
    expect(toForget(FULL.slice(1), one)).toEqual([]);
    expect(toForget([...FULL, entry(6, [2], 7)], ten).map((e) => e.spec.seed)).toEqual([6, 3]);
  });
});

describe("the confirmations say it before", () => {
  it("names the kept experiment that keeping this one forgets", () => {
    const { spec, runs } = lab(10, 10);
    const room = roomFor(FULL, hereOf(spec, runs, false), { ...defaultExperiment(), seed: 20 });
    expect(room).toEqual({ forget: [FULL[3]], notKept: false });
    expect(keptLine({ steps: 10, compared: 0, pipeline: false, room }, true)).toBe(
      "This browser keeps its training (runs up to step 10) under Change… → Recent experiments. To make room, " +
        "it will forget the kept experiment with the least training (Sentiment · shipped SFT model · seed 3: PPO at step 3)",
    );
    // Nothing to forget (or not read yet): the line as before.
    for (const r of [NO_ROOM, null])
      expect(keptLine({ steps: 10, compared: 0, pipeline: false, room: r }, true)).toBe(
        "This browser keeps its training (runs up to step 10) under Change… → Recent experiments",
      );
  });

  it("says when this one would not be kept, and does not say it is kept", () => {
    // Only runs imported for comparison: 0 steps trained here, less than every kept one.
    const { spec, runs } = lab(10, 0, true);
    const room = roomFor(FULL, hereOf(spec, runs, false), null);
    expect(room).toEqual({ forget: [], notKept: true });
    const line = keptLine(
      { steps: 0, compared: 2, pipeline: false, room },
      true,
      "under Recent experiments below",
    );
    expect(line).toBe(
      "This browser will not keep its 2 runs imported for comparison: the 6 kept experiments each hold more " +
        "training (Change… → Recent experiments); forget one there first to keep this one",
    );
    expect(line).not.toMatch(/keeps/);
    // With Pipeline models it outranks them all: kept, and seed 3 goes.
    const piped = roomFor(FULL, hereOf(spec, runs, true), null);
    expect(piped.forget).toEqual([FULL[3]]);
    expect(keptLine({ steps: 0, compared: 2, pipeline: true, room: piped }, true, "below")).toMatch(
      /^This browser keeps its 2 runs imported for comparison and Pipeline models below\. To make room, it will forget the kept experiment with the least training \(.*seed 3: PPO at step 3\)$/,
    );
  });

  it("forgets nothing when leaving for a kept one (it is swapped out first) or replacing an earlier copy", () => {
    const { spec, runs } = lab(10, 1);
    const here = hereOf(spec, runs, false);
    expect(roomFor(FULL, here, FULL[2].spec)).toEqual(NO_ROOM);
    // An earlier copy of this training (PPO at 1 of 1) is replaced, not kept beside: the list does not grow.
    const copy = { ...entry(10, [1], 50) };
    expect(roomFor([...FULL.slice(0, 5), copy], here, null)).toEqual(NO_ROOM);
    // Another training of the same experiment further along is not held: it stays, and this one is not kept.
    expect(roomFor([...FULL.slice(0, 5), entry(10, [9], 50)], here, null)).toEqual({
      forget: [],
      notKept: true,
    });
  });
});
