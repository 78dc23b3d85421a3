import { describe, expect, it } from "vitest";
import { DEFAULT_FLIP_RATE, preferByGold, SimulatedAnnotator } from "../../src/tasks/annotator";
import { createArithmeticTask } from "../../src/tasks/arithmetic";
import { Rng } from "../../src/util/rng";

/** A toy task whose gold score is the completion's length. */
const lengthTask = { gold: (_p: string, c: string) => c.length };

describe("simulated annotator (AlpacaFarm)", () => {
  it("defaults to a 25% flip rate and validates it", () => {
    expect(DEFAULT_FLIP_RATE).toBe(0.25);
    expect(new SimulatedAnnotator(lengthTask).flipRate).toBe(0.25);
    for (const bad of [-0.1, 1.1, Number.NaN])
      expect(() => new SimulatedAnnotator(lengthTask, bad)).toThrow(RangeError);
  });

  it("prefers the higher gold score when it never flips", () => {
    const ann = new SimulatedAnnotator(lengthTask, 0);
    const rng = new Rng(1);
    for (let i = 0; i < 100; i++) {
      expect(ann.prefer("p", "long one", "short", rng)).toMatchObject({
        winner: "a",
        flipped: false,
        tie: false,
      });
      expect(ann.prefer("p", "short", "long one", rng).winner).toBe("b");
    }
  });

  it("always flips at rate 1", () => {
    const ann = new SimulatedAnnotator(lengthTask, 1);
    const pref = ann.prefer("p", "long one", "short", new Rng(2));
    expect(pref).toMatchObject({ winner: "b", flipped: true, goldA: 8, goldB: 5 });
  });

  for (const p of [0, 0.25, 0.5]) {
    it(`observes a flip rate within 4σ of ${p} over 20,000 comparisons`, () => {
      const N = 20_000;
      const ann = new SimulatedAnnotator(lengthTask, p);
      const rng = new Rng(1234);
      const data = new Rng(99);
      let disagree = 0;
      let flaggedFlips = 0;
      for (let i = 0; i < N; i++) {
        const la = data.int(0, 20);
        let lb = data.int(0, 19);
        if (lb >= la) lb++; // distinct lengths: no ties
        const pref = ann.prefer("p", "x".repeat(la), "x".repeat(lb), rng);
        const goldWinner = la > lb ? "a" : "b";
        if (pref.winner !== goldWinner) disagree++;
        if (pref.flipped) flaggedFlips++;
      }
      expect(flaggedFlips).toBe(disagree);
      const sigma = Math.sqrt(N * p * (1 - p));
      expect(Math.abs(disagree - N * p)).toBeLessThanOrEqual(4 * sigma);
    });
  }

  it("breaks ties with a fair coin and never counts them as flips", () => {
    const N = 20_000;
    const rng = new Rng(5);
    let aWins = 0;
    for (let i = 0; i < N; i++) {
      const pref = preferByGold(0, 0, 0.25, rng);
      expect(pref.tie && !pref.flipped).toBe(true);
      if (pref.winner === "a") aWins++;
    }
    expect(Math.abs(aWins - N / 2)).toBeLessThanOrEqual(4 * Math.sqrt(N / 4));
  });

  it("labels arithmetic completions by the verifier and is reproducible from the seed", () => {
    const ann = new SimulatedAnnotator(createArithmeticTask(), 0.25);
    const run = (seed: number) => {
      const rng = new Rng(seed);
      return Array.from({ length: 50 }, () => ann.prefer("37+45=", "82", "83", rng).winner);
    };
    expect(run(3)).toEqual(run(3));
    expect(run(3).filter((w) => w === "a").length).toBeGreaterThan(25);
    expect(() => preferByGold(Number.NaN, 1, 0.25, new Rng(0))).toThrow(RangeError);
  });
});
