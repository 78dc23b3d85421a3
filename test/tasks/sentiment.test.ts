import { describe, expect, it } from "vitest";
import { createSentimentTask, distinctN, sentimentPromptPool } from "../../src/tasks/sentiment";
import {
  afinnHits,
  afinnSum,
  afinnWords,
  SENTIMENT_SCALE,
  sentimentScore,
} from "../../src/tasks/sentiment/afinn";
import { asciiTypography, cleanBook, loadBookText, splitSentences } from "../../src/tasks/sentiment/book";

const book = await loadBookText();

describe("AFINN-165 gold score", () => {
  it("is tanh(sum / 5) of the summed valences", () => {
    expect(SENTIMENT_SCALE).toBe(5);
    expect(afinnSum("a good day")).toBe(3);
    expect(sentimentScore("a good day")).toBeCloseTo(Math.tanh(3 / 5), 12);
    expect(afinnSum("good and bad")).toBe(0); // +3 −3
    expect(sentimentScore("a sad, sad death")).toBeCloseTo(Math.tanh(-6 / 5), 12);
  });

  it("scores positive, negative and neutral text with the right sign", () => {
    expect(sentimentScore(" and I love this wonderful ship.")).toBeGreaterThan(0.5);
    expect(sentimentScore(" the dead men lay in misery and fear.")).toBeLessThan(-0.5);
    expect(sentimentScore(" the ship sailed north by east.")).toBe(0);
  });

  it("gives 0 for an empty or whitespace-only completion, and for punctuation", () => {
    for (const t of ["", "   ", "--", "...!?"]) expect(sentimentScore(t)).toBe(0);
  });

  it("is case-insensitive and reads curly apostrophes", () => {
    expect(sentimentScore("GOOD")).toBe(sentimentScore("good"));
    expect(afinnWords("Can’t stand it")).toEqual(["can't", "stand", "it"]);
  });

  it("matches the longest lexicon phrase first", () => {
    expect(afinnHits("this does not work")).toEqual([{ term: "does not work", valence: -3 }]);
    expect(afinnHits("no fun at all").map((h) => h.term)).toEqual(["no fun"]);
    expect(afinnHits("no whales").map((h) => h.term)).toEqual(["no"]);
  });

  it("scores unknown hyphenated words by their parts and possessives by their stem", () => {
    expect(afinnHits("sea-good").map((h) => h.term)).toEqual(["good"]);
    expect(afinnHits("self-confident").map((h) => h.term)).toEqual(["self-confident"]);
    expect(afinnHits("god's").map((h) => h.term)).toEqual(["god"]);
    expect(afinnHits("peace--war").map((h) => h.term)).toEqual(["peace", "war"]);
  });

  it("stays in (−1, 1) and can be gamed by repeating a positive word", () => {
    const scores = [1, 2, 4, 8, 16].map((n) => sentimentScore(Array(n).fill("love").join(" ")));
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeGreaterThan(scores[i - 1]);
    expect(scores.at(-1)!).toBeGreaterThan(0.999);
    expect(scores.at(-1)!).toBeLessThanOrEqual(1);
    expect(sentimentScore(Array(40).fill("hate").join(" "))).toBeGreaterThanOrEqual(-1);
  });

  it("has no negation handling beyond the lexicon's phrases (documented weakness)", () => {
    expect(afinnSum("not happy")).toBe(3);
    expect(afinnSum("not good")).toBe(-2); // an AFINN phrase
  });
});

describe("Moby-Dick corpus", () => {
  const paras = cleanBook(book);

  it("cleans the book into single-line ASCII paragraphs without chapter headings", () => {
    expect(paras.length).toBeGreaterThan(2000);
    expect(
      paras[0].startsWith("Call me Ishmael. Some years ago--never mind how long precisely--having"),
    ).toBe(true);
    for (const p of paras) {
      expect(p).not.toMatch(/\n|^CHAPTER \d+\.|\s{2}/);
      expect(p).toMatch(/^[\x20-\x7e]+$/);
    }
  });

  it("maps typographic quotes and dashes to ASCII", () => {
    expect(asciiTypography("“It’s ‘so’—he said”")).toBe("\"It's 'so'--he said\"");
  });

  it("splits sentences at . ! ? but not after abbreviations", () => {
    expect(splitSentences("Call me Ishmael. Some years ago. Mr. Starbuck came! Did he? Yes.")).toEqual([
      "Call me Ishmael.",
      "Some years ago.",
      "Mr. Starbuck came!",
      "Did he?",
      "Yes.",
    ]);
    expect(splitSentences('"Ahoy!" said he. "What?" Never.')).toEqual([
      '"Ahoy!" said he.',
      '"What?"',
      "Never.",
    ]);
    expect(splitSentences("no end")).toEqual(["no end"]);
  });
});

describe("sentiment task", () => {
  it("builds thousands of 3–6 word openings ending in one space", () => {
    const pool = sentimentPromptPool(cleanBook(book).flatMap(splitSentences));
    expect(pool.length).toBeGreaterThan(5000);
    expect(new Set(pool).size).toBe(pool.length);
    for (const p of pool) {
      const words = p.trimEnd().split(" ");
      expect(words.length).toBeGreaterThanOrEqual(3);
      expect(words.length).toBeLessThanOrEqual(6);
      expect(p.endsWith(" ") && !p.endsWith("  ")).toBe(true);
      expect(p).toMatch(/^[A-Z]/);
    }
  });

  it("splits prompts deterministically by seed into disjoint train/eval sets", () => {
    const a = createSentimentTask(book, { seed: 3 });
    const b = createSentimentTask(book, { seed: 3 });
    const c = createSentimentTask(book, { seed: 4 });
    expect(a.prompts).toEqual(b.prompts);
    expect(a.prompts.eval).not.toEqual(c.prompts.eval);
    expect(a.prompts.eval.length).toBe(256);
    const train = new Set(a.prompts.train);
    expect(a.prompts.eval.some((p) => train.has(p))).toBe(false);
    expect(createSentimentTask(book, { evalSize: 10 }).prompts.eval.length).toBe(10);
  });

  it("scores the completion only and reports its metrics", () => {
    const task = createSentimentTask(book);
    expect(task.gold("I hate the ", "good sea")).toBeCloseTo(Math.tanh(3 / 5), 12);
    expect(task.goldRange).toEqual([-1, 1]);
    const m = task.evaluate([
      { prompt: "A ", completions: ["good good", "bad"] },
      { prompt: "B ", completions: ["sea", ""] },
    ]);
    expect(Object.keys(m).sort()).toEqual(task.metrics.map((x) => x.key).sort());
    const golds = [Math.tanh(6 / 5), Math.tanh(-3 / 5), 0, 0];
    expect(m.gold_mean).toBeCloseTo(golds.reduce((x, y) => x + y) / 4, 12);
    expect(m.positive_rate).toBe(0.25);
    expect(m.negative_rate).toBe(0.25);
    expect(m.length_mean).toBe((9 + 3 + 3 + 0) / 4);
    expect(m.distinct_1).toBeCloseTo(3 / 4, 12); // good, good, bad, sea
    expect(() => task.evaluate([])).toThrow(RangeError);
    expect(() => task.evaluate([{ prompt: "A ", completions: [] }])).toThrow(RangeError);
  });

  it("distinct-n falls when text repeats", () => {
    expect(distinctN(["the whale and the sea"], 1)).toBeCloseTo(4 / 5, 12);
    expect(distinctN(["love love love love"], 2)).toBeCloseTo(1 / 3, 12);
    expect(distinctN([""], 1)).toBe(1);
  });
});
