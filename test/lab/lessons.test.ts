import { describe, expect, it } from "vitest";
import { LESSONS, lessonUrl } from "../../src/lab/presets";
import type { MetricRows } from "../../src/lab/presets/checks";
import { movingAverage, tailMean } from "../../src/lab/presets/checks";
import { PRESET_IDS } from "../../src/lab/presets/ids";
import { DEFAULT_SHARED_VIEW } from "../../src/lab/settings";
import { shareUrl } from "../../src/lab/url";
import { flat, lessonSpecProblems, showsOf } from "./lesson_fixtures";

describe("guided lessons", () => {
  it("there are the eight lessons of the teaching issue, each with a narrative and papers", () => {
    expect(Object.keys(LESSONS)).toEqual([...PRESET_IDS]);
    expect(PRESET_IDS).toHaveLength(8);
    for (const l of Object.values(LESSONS)) {
      expect(l.watch.length, l.id).toBeGreaterThanOrEqual(2);
      expect(l.refs.length, l.id).toBeGreaterThanOrEqual(1);
      for (const r of l.refs) expect(r.url, l.id).toMatch(/^https?:\/\//);
    }
  });

  it("every lesson is filed under its own id", () => {
    for (const [k, l] of Object.entries(LESSONS)) expect(l.id, `LESSONS["${k}"].id`).toBe(k);
  });

  it("every lesson is a valid experiment: no setting is dropped when its link is read back", () => {
    for (const id of PRESET_IDS) {
      // Each problem as a sentence with the lesson's id and the text (an unknown setting, a value out of
      // range), before any comparison of whole specs.
      expect(lessonSpecProblems(LESSONS[id], id)).toEqual([]);
      const l = LESSONS[id];
      expect(lessonUrl(id, "https://lab.example/#old", 2), id).toBe(
        shareUrl(l.experiment(2), { ...DEFAULT_SHARED_VIEW, ...l.view }, "https://lab.example/#old"),
      );
    }
  });

  it("each check sees its effect in histories that show it, and not in flat ones", () => {
    for (const id of PRESET_IDS) {
      const shows = showsOf(id);
      // The runs a check reads are the lesson's own runs.
      const ids = new Set(LESSONS[id].experiment(0).runs.map((r) => r.id));
      for (const run of Object.keys(shows))
        expect(ids.has(run), `${id}: ${run} is one of its runs`).toBe(true);
      const v = LESSONS[id].check(shows);
      expect(v.ok, `${id}: ${JSON.stringify(v.numbers)}`).toBe(true);
      const none: Record<string, MetricRows> = {};
      for (const [run, r] of Object.entries(shows)) none[run] = flat(r.length, Object.keys(r[0]));
      // k1 never negative, or a flat history: the effect is absent.
      expect(LESSONS[id].check(none).ok, `${id} on flat histories`).toBe(false);
    }
  });

  it("length bias: the papers' direction only (Dr. GRPO ending the longer is not the effect)", () => {
    const shows = showsOf("length-bias");
    expect(LESSONS["length-bias"].check(shows).ok).toBe(true);
    const reversed = { grpo: shows["dr-grpo"], "dr-grpo": shows.grpo };
    expect(LESSONS["length-bias"].check(reversed).ok).toBe(false);
    // Longer because it hacked the reward sooner (seed 1: rewards 0.95 vs 0.43) is not the loss's bias.
    const hacked = { ...shows, grpo: shows.grpo.map((r) => ({ ...r, reward: 0.95 })) };
    expect(LESSONS["length-bias"].check(hacked).ok).toBe(false);
  });

  it("statistics skip missing and non-finite values", () => {
    const r: MetricRows = [{ a: 1 }, { a: Number.NaN }, {}, { a: 3 }];
    expect(tailMean(r, "a", 2)).toBe(2);
    expect(movingAverage([0, 3, 0, 3], 3)).toEqual([1.5, 1, 2, 1.5]);
  });
});
