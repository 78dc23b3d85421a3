import { describe, expect, it } from "vitest";
import { buildPreferences } from "../../scripts/build-preferences";
import { placeholderGenerator } from "../../scripts/placeholder-samples";
import { SimulatedAnnotator } from "../../src/tasks/annotator";
import { createArithmeticTask } from "../../src/tasks/arithmetic";
import {
  buildPreferencePairs,
  PreferenceFormatError,
  type PreferenceRecord,
  parsePreferencesJsonl,
  parseSamplesJsonl,
  preferencesToJsonl,
  relabelPreferences,
  samplesToJsonl,
} from "../../src/tasks/preferences";
import type { PromptSamples } from "../../src/tasks/task";
import { Rng } from "../../src/util/rng";

const task = createArithmeticTask({ seed: 0 });

function samplesFor(prompts: readonly string[], seed: number, k = 4): PromptSamples[] {
  return placeholderGenerator("arithmetic", k)(prompts, new Rng(seed)) as PromptSamples[];
}

function checkInvariants(records: PreferenceRecord[], samples: PromptSamples[]): void {
  const byPrompt = new Map(samples.map((s) => [s.prompt, new Set(s.completions)]));
  const seen = new Set<string>();
  const evalSet = new Set(task.prompts.eval);
  for (const r of records) {
    expect(r.chosen).not.toBe(r.rejected);
    expect(byPrompt.get(r.prompt)?.has(r.chosen)).toBe(true);
    expect(byPrompt.get(r.prompt)?.has(r.rejected)).toBe(true);
    const key = JSON.stringify([r.prompt, [r.chosen, r.rejected].sort()]);
    expect(seen.has(key)).toBe(false);
    seen.add(key);
    expect(r.score_chosen).toBe(task.gold(r.prompt, r.chosen));
    expect(r.score_rejected).toBe(task.gold(r.prompt, r.rejected));
    expect(r.tie).toBe(r.score_chosen === r.score_rejected);
    expect(r.flipped).toBe(r.score_chosen < r.score_rejected);
    expect(r.split).toBe(evalSet.has(r.prompt) ? "eval" : "train");
    expect(r.task).toBe("arithmetic");
  }
}

describe("buildPreferencePairs", () => {
  const prompts = [...task.prompts.train.slice(0, 40), ...task.prompts.eval.slice(0, 10)];
  const samples = samplesFor(prompts, 1);
  const ann = new SimulatedAnnotator(task, 0.25);

  it("makes one labelled pair per prompt by default, satisfying every invariant", () => {
    const recs = buildPreferencePairs(task, samples, ann, new Rng(2));
    const usable = samples.filter((s) => new Set(s.completions).size >= 2).length;
    expect(recs.length).toBe(usable);
    expect(new Set(recs.map((r) => r.prompt)).size).toBe(usable);
    checkInvariants(recs, samples);
    expect(recs.some((r) => r.split === "eval")).toBe(true);
  });

  it("draws more pairs round-robin without repeats, and stops when none are left", () => {
    const recs = buildPreferencePairs(task, samples, ann, new Rng(2), { pairs: 120 });
    expect(recs.length).toBe(120);
    checkInvariants(recs, samples);
    const available = samples.reduce((n, s) => {
      const k = new Set(s.completions).size;
      return n + (k * (k - 1)) / 2;
    }, 0);
    const all = buildPreferencePairs(task, samples, ann, new Rng(2), { pairs: 10_000 });
    expect(all.length).toBe(available);
    checkInvariants(all, samples);
    expect(() => buildPreferencePairs(task, samples, ann, new Rng(2), { pairs: -1 })).toThrow(RangeError);
  });

  it("skips identical completions and prompts with fewer than two distinct texts", () => {
    const recs = buildPreferencePairs(
      task,
      [
        { prompt: "10+10=", completions: ["20", "20", "20"] },
        { prompt: "11+11=", completions: ["22"] },
        { prompt: "12+12=", completions: ["24", "24", "25"] },
      ],
      ann,
      new Rng(0),
      { pairs: 5 },
    );
    expect(recs.length).toBe(1);
    expect(new Set([recs[0].chosen, recs[0].rejected])).toEqual(new Set(["24", "25"]));
  });

  it("can drop ties, and is deterministic given the rng seed", () => {
    const noTies = buildPreferencePairs(task, samples, ann, new Rng(3), { pairs: 60, skipTies: true });
    expect(noTies.every((r) => !r.tie)).toBe(true);
    checkInvariants(noTies, samples);
    const again = buildPreferencePairs(task, samples, ann, new Rng(3), { pairs: 60, skipTies: true });
    expect(again).toEqual(noTies);
  });

  it("relabels stored pairs from their gold scores with another flip rate", () => {
    const recs = buildPreferencePairs(task, samples, ann, new Rng(2), { pairs: 100 });
    const clean = relabelPreferences(recs, 0, new Rng(9));
    expect(clean.filter((r) => !r.tie).every((r) => r.score_chosen > r.score_rejected && !r.flipped)).toBe(
      true,
    );
    checkInvariants(clean, samples);
    const flippedAll = relabelPreferences(recs, 1, new Rng(9));
    expect(flippedAll.filter((r) => !r.tie).every((r) => r.flipped)).toBe(true);
  });
});

describe("preference JSONL", () => {
  const recs = buildPreferencePairs(
    task,
    samplesFor(task.prompts.train.slice(0, 20), 4),
    new SimulatedAnnotator(task),
    new Rng(1),
  );

  it("round-trips records and samples", () => {
    const text = preferencesToJsonl(recs);
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trim().split("\n").length).toBe(recs.length);
    expect(parsePreferencesJsonl(text)).toEqual(recs);
    expect(Object.keys(JSON.parse(text.split("\n")[0]))).toEqual([
      "task",
      "prompt",
      "chosen",
      "rejected",
      "score_chosen",
      "score_rejected",
      "flipped",
      "tie",
      "split",
    ]);
    const samples = samplesFor(["10+10=", "11+11="], 0);
    expect(parseSamplesJsonl(samplesToJsonl(samples))).toEqual(samples);
    expect(parsePreferencesJsonl("")).toEqual([]);
  });

  it("names the line and the field of a malformed record", () => {
    const good = preferencesToJsonl(recs.slice(0, 1)).trim();
    const bad = (patch: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(good), ...patch });
    const cases: [string, RegExp][] = [
      [`${good}\n{not json`, /line 2: not JSON/],
      [`${good}\n[1, 2]`, /line 2: expected a JSON object/],
      [bad({ task: "poetry" }), /line 1: field "task"/],
      [bad({ chosen: 3 }), /field "chosen" must be a string/],
      [bad({ score_rejected: "high" }), /field "score_rejected"/],
      [bad({ flipped: "no" }), /field "flipped"/],
      [bad({ split: "test" }), /field "split"/],
      [bad({ chosen: "x", rejected: "x" }), /chosen and rejected are equal/],
    ];
    for (const [text, re] of cases) {
      expect(() => parsePreferencesJsonl(text)).toThrow(PreferenceFormatError);
      expect(() => parsePreferencesJsonl(text)).toThrow(re);
    }
    expect(() => parseSamplesJsonl('{"prompt": "a", "completions": [1]}')).toThrow(/completions/);
  });
});

describe("buildPreferences (the script's core)", () => {
  it("takes completions from a generator, honours the eval share, and only relabels when the flip rate changes", async () => {
    const gen = placeholderGenerator("arithmetic", 4);
    const a = await buildPreferences(task, gen, { seed: 5, pairs: 200, evalFraction: 0.25, flipRate: 0.25 });
    expect(a.records.length).toBe(200);
    expect(a.samples.length).toBe(200);
    expect(a.samples.filter((s) => task.prompts.eval.includes(s.prompt)).length).toBe(50);
    expect(a.meta).toMatchObject({
      task: "arithmetic",
      seed: 5,
      flip_rate: 0.25,
      pairs: 200,
      source: "generator",
    });
    checkInvariants(a.records, a.samples);
    const b = await buildPreferences(task, gen, { seed: 5, pairs: 200, evalFraction: 0.25, flipRate: 0 });
    expect(b.samples).toEqual(a.samples);
    const pairKey = (r: PreferenceRecord) => JSON.stringify([r.prompt, [r.chosen, r.rejected].sort()]);
    expect(b.records.map(pairKey)).toEqual(a.records.map(pairKey));
    expect(b.records.every((r) => !r.flipped)).toBe(true);
    const fromSamples = await buildPreferences(task, a.samples, { seed: 5, pairs: 200 });
    expect(fromSamples.records.map(pairKey)).toEqual(a.records.map(pairKey));
  });
});
