import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { offlineFlips } from "../../src/algorithms/dpo";
import { annotatorMetrics, annotatorRng, labelPairs } from "../../src/algorithms/pairs";
import type { Rollout } from "../../src/algorithms/rollout";
import { preferenceSource } from "../../src/lab/preferences";
import { loadTask } from "../../src/tasks/index";
import { encodeCompletion, parsePreferencesJsonl } from "../../src/tasks/preferences";
import { parseTokenizer } from "../../src/tokenizer/tokenizer";
import { Rng } from "../../src/util/rng";

const ids = Array.from({ length: 20000 }, (_, i) => i);

describe("offline DPO labels", () => {
  it("flips a flipRate share of the pairs, the same pairs every time, and only adds flips as the rate rises", () => {
    for (const rate of [0, 0.1, 0.25, 0.5]) {
      const share = offlineFlips(ids, rate, 3).filter(Boolean).length / ids.length;
      expect(Math.abs(share - rate)).toBeLessThan(0.01);
    }
    expect(offlineFlips(ids, 0.25, 3)).toEqual(offlineFlips(ids, 0.25, 3));
    // Per pair, not per position in a batch: the flips of ids [5, 9] are those of 5 and 9 anywhere.
    const all = offlineFlips(ids, 0.3, 3);
    expect(offlineFlips([9, 5], 0.3, 3)).toEqual([all[9], all[5]]);
    const low = offlineFlips(ids, 0.1, 3);
    expect(low.every((f, i) => !f || all[i])).toBe(true);
    // Another seed flips other pairs.
    const other = offlineFlips(ids, 0.3, 4);
    expect(other.filter((f, i) => f !== all[i]).length).toBeGreaterThan(1000);
  });

  it("flips pairs independently: neighbouring ids and other seeds flip as often as chance says", () => {
    const rate = 0.25;
    const f0 = offlineFlips(ids, rate, 0);
    // P(flip at id + lag | flip at id): each pair's coin was a fixed lattice over ids (lag 1 never, lag 3 91 %).
    for (const lag of [1, 2, 3, 6]) {
      let both = 0;
      let first = 0;
      for (let i = 0; i + lag < ids.length; i++)
        if (f0[i]) {
          first++;
          if (f0[i + lag]) both++;
        }
      expect(Math.abs(both / first - rate), `lag ${lag}: ${both}/${first}`).toBeLessThan(0.03);
    }
    // Seeds 0 and 1 flipped disjoint sets and 0 and 2 mostly the same (84 %): each overlap is now ≈ rate².
    for (const seed of [1, 2, 3]) {
      const f = offlineFlips(ids, rate, seed);
      const overlap = f.filter((x, i) => x && f0[i]).length / ids.length;
      expect(Math.abs(overlap - rate * rate), `seeds 0 and ${seed}: ${overlap}`).toBeLessThan(0.01);
    }
  });

  it("the online annotator's coins of consecutive steps are independent (pair 0 was never flipped twice running)", () => {
    const first = Array.from({ length: 20000 }, (_, k) => annotatorRng(0, k + 1).float());
    const mx = first.reduce((a, v) => a + v, 0) / first.length;
    let sxy = 0;
    let sxx = 0;
    for (let i = 0; i + 1 < first.length; i++) sxy += (first[i] - mx) * (first[i + 1] - mx);
    for (const v of first) sxx += (v - mx) ** 2;
    expect(Math.abs(sxy / sxx), "lag-1 correlation across steps (was −0.32)").toBeLessThan(0.03);
  });

  it("serves the shipped pairs in gold order: the file's flipped labels are undone", () => {
    const dir = "public/models/arithmetic";
    const tok = parseTokenizer(JSON.parse(readFileSync(`${dir}/tokenizer.json`, "utf8")));
    const text = readFileSync(`${dir}/preferences.jsonl`, "utf8");
    const train = parsePreferencesJsonl(text).filter((r) => r.split === "train");
    const src = preferenceSource(text, tok, 0, "prefs", 6);
    const { pairs, ids: got } = src.batch(0, src.size);
    let undone = 0;
    pairs.forEach((p, i) => {
      const r = train[got[i]];
      const better = r.score_chosen >= r.score_rejected ? r.chosen : r.rejected;
      const worse = r.score_chosen >= r.score_rejected ? r.rejected : r.chosen;
      expect(p.chosen).toEqual(encodeCompletion(tok, better, 6));
      expect(p.rejected).toEqual(encodeCompletion(tok, worse, 6));
      if (r.flipped) undone++;
    });
    expect(undone).toBeGreaterThan(100); // the shipped set carries ~23.5 % flipped labels
  });
});

describe("stored completions and EOS", () => {
  it("a completion that filled the sampler's length limit was cut, so it gets no EOS; a shorter one ended", () => {
    const tok = parseTokenizer(JSON.parse(readFileSync("public/models/arithmetic/tokenizer.json", "utf8")));
    expect(encodeCompletion(tok, "12", 6)).toEqual([...tok.encode("12"), tok.eosId]);
    expect(encodeCompletion(tok, "", 6)).toEqual([tok.eosId]);
    expect(encodeCompletion(tok, "12345", 6)).toEqual([...tok.encode("12345"), tok.eosId]);
    expect(encodeCompletion(tok, "123456", 6)).toEqual(tok.encode("123456"));
    expect(encodeCompletion(tok, "1234567", 6)).toEqual(tok.encode("1234567"));
  });

  it("every shipped preference file was sampled with its task's limit, which the loaders take as the cut", async () => {
    for (const [task, name] of [
      ["sentiment", "preferences"],
      ["arithmetic", "preferences"],
      ["arithmetic", "rm-preferences"],
    ] as const) {
      const meta = JSON.parse(readFileSync(`public/models/${task}/${name}.meta.json`, "utf8"));
      expect(meta.max_new_tokens, `${task}/${name}`).toBe((await loadTask(task)).generation.maxNewTokens);
    }
  });

  it("the shipped sentiment pairs: EOS on exactly the completions shorter than 64 tokens", () => {
    const dir = "public/models/sentiment";
    const tok = parseTokenizer(JSON.parse(readFileSync(`${dir}/tokenizer.json`, "utf8")));
    const text = readFileSync(`${dir}/preferences.jsonl`, "utf8");
    const src = preferenceSource(text, tok, 0, "prefs", 64);
    const all = src.batch(0, src.size).pairs.flatMap((p) => [p.chosen, p.rejected]);
    const ended = all.filter((ids) => ids.at(-1) === tok.eosId);
    // Every completion keeps its text; only those that ended (< 64 tokens) carry EOS, and no EOS is mid-sequence.
    expect(ended.every((ids) => ids.length <= 64)).toBe(true);
    expect(all.filter((ids) => ids.at(-1) !== tok.eosId).every((ids) => ids.length === 64)).toBe(true);
    expect(
      all.every((ids) => ids.indexOf(tok.eosId) === -1 || ids.indexOf(tok.eosId) === ids.length - 1),
    ).toBe(true);
    // Most shipped completions were cut at 64 tokens: 4,052 of the train split's 5,420 (4,477 of 6,000 in all).
    expect([all.length - ended.length, all.length]).toEqual([4052, 5420]);
    expect(src.maxCompletion).toBe(64);
  });
});

describe("preference labels and gold ties", () => {
  it("offline: a tie keeps the file's order and is flagged, so DPO never counts it as flipped", () => {
    const tok = parseTokenizer(JSON.parse(readFileSync("public/models/arithmetic/tokenizer.json", "utf8")));
    const rec = (chosen: string, rejected: string, sc: number, sr: number) =>
      JSON.stringify({
        task: "arithmetic",
        prompt: "1+1=",
        chosen,
        rejected,
        score_chosen: sc,
        score_rejected: sr,
        flipped: sc < sr,
        tie: sc === sr,
        split: "train",
      });
    const text = [rec("2", "3", 1, 0), rec("4", "2", 0, 1), rec("5", "6", 0, 0)].join("\n");
    const src = preferenceSource(text, tok, 0, "t", 6);
    const b = src.batch(0, 3);
    const byId = b.ids.map((id, i) => ({
      id,
      tie: b.ties?.[i],
      chosen: tok.decode(b.pairs[i].chosen.slice(0, -1)),
    }));
    expect(byId.sort((x, y) => x.id - y.id)).toEqual([
      { id: 0, tie: false, chosen: "2" },
      { id: 1, tie: false, chosen: "2" },
      { id: 2, tie: true, chosen: "5" },
    ]);
  });

  it("online: labels follow gold, a flipRate of 1 flips every non-tie, and a tie is never counted", () => {
    const r = {
      prompts: [[1], [2], [3]],
      completions: [[5], [6], [7], [8], [9], [10]],
      gold: [1, 0, 0.5, 0, 1, 0.5], // pair 0: a wins; pair 1: b wins; pair 2: tie
    } as unknown as Rollout;
    const clean = labelPairs(r, 0, new Rng(1));
    expect(clean.pairs.slice(0, 2).map((p) => p.chosen)).toEqual([[5], [9]]);
    expect(clean.flips).toEqual([false, false, false]);
    const all = labelPairs(r, 1, new Rng(1));
    expect(all.pairs.slice(0, 2).map((p) => p.chosen)).toEqual([[8], [6]]);
    expect(all.flips).toEqual([true, true, false]);
    expect(all.flipped).toBe(2);
    expect(all.ties).toBe(1);
    // The flip rate is read over the pairs the gold orders: 2 of 2 here, not 2 of 3; a third of the pairs tied.
    expect(annotatorMetrics(all.flipped, all.ties, 3)).toEqual({
      "annotator/flipped": 1,
      "annotator/ties": 1 / 3,
    });
    expect(annotatorMetrics(0, 3, 3)).toEqual({ "annotator/ties": 1 }); // nothing to flip: no flip rate
  });
});
