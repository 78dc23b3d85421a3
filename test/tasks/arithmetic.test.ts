import { describe, expect, it } from "vitest";
import {
  arithmeticAnswer,
  arithmeticGold,
  arithmeticLines,
  arithmeticPromptPool,
  createArithmeticTask,
  isWellFormedNumber,
} from "../../src/tasks/arithmetic";
import { meanPassAtK, passAtK } from "../../src/tasks/pass_at_k";

/** pass@k by enumerating every k-subset of n samples (c of them correct): share of subsets with a correct one. */
function passAtKBrute(n: number, c: number, k: number): number {
  let hit = 0;
  let all = 0;
  for (let mask = 0; mask < 1 << n; mask++) {
    let bits = 0;
    for (let i = 0; i < n; i++) bits += (mask >> i) & 1;
    if (bits !== k) continue;
    all++;
    if ((mask & ((1 << c) - 1)) !== 0) hit++; // samples 0..c−1 are the correct ones
  }
  return hit / all;
}

describe("pass@k (Chen et al. 2021)", () => {
  it("equals brute-force enumeration over all k-subsets", () => {
    for (let n = 1; n <= 10; n++)
      for (let c = 0; c <= n; c++)
        for (let k = 1; k <= n; k++) expect(passAtK(n, c, k)).toBeCloseTo(passAtKBrute(n, c, k), 12);
  });

  it("pass@1 is c/n; 0 with no correct sample; 1 when n − c < k", () => {
    expect(passAtK(8, 3, 1)).toBeCloseTo(3 / 8, 12);
    expect(passAtK(200, 0, 100)).toBe(0);
    expect(passAtK(10, 7, 4)).toBe(1);
    expect(passAtK(1000, 1, 1)).toBeCloseTo(0.001, 12);
  });

  it("averages over prompts and rejects impossible counts", () => {
    expect(
      meanPassAtK(
        [
          [4, 1],
          [4, 3],
        ],
        1,
      ),
    ).toBeCloseTo(0.5, 12);
    expect(() => passAtK(4, 5, 1)).toThrow(RangeError);
    expect(() => passAtK(4, 1, 5)).toThrow(RangeError);
    expect(() => passAtK(4, 1, 0)).toThrow(RangeError);
    expect(() => meanPassAtK([], 1)).toThrow(RangeError);
  });
});

describe("arithmetic verifier", () => {
  it("accepts exactly the decimal sum, whitespace-trimmed", () => {
    expect(arithmeticAnswer("37+45=")).toBe("82");
    expect(arithmeticGold("37+45=", "82")).toBe(1);
    expect(arithmeticGold("37+45=", " 82 ")).toBe(1);
    expect(arithmeticGold("37+45=", "\t82\n")).toBe(1);
    expect(arithmeticGold("99+99=", "198")).toBe(1);
  });

  it("rejects wrong, empty, padded, signed, decimal and non-number answers", () => {
    for (const c of ["83", "", "   ", "082", "+82", "82.0", "8 2", "82+1", "eighty-two", "82<unk>", "<unk>"])
      expect(arithmeticGold("37+45=", c)).toBe(0);
  });

  it("gives the optional format score only to well-formed wrong numbers", () => {
    expect(arithmeticGold("37+45=", "83", 0.1)).toBe(0.1);
    expect(arithmeticGold("37+45=", "82", 0.1)).toBe(1);
    expect(arithmeticGold("37+45=", "082", 0.1)).toBe(0);
    expect(arithmeticGold("37+45=", "abc", 0.1)).toBe(0);
    expect(arithmeticGold("37+45=", "", 0.1)).toBe(0);
    expect(isWellFormedNumber("0") && isWellFormedNumber(" 120 ") && !isWellFormedNumber("01")).toBe(true);
  });

  it("throws on a prompt that is not a+b=", () => {
    expect(() => arithmeticGold("37+45", "82")).toThrow(RangeError);
    expect(() => arithmeticAnswer("a+b=")).toThrow(RangeError);
  });
});

describe("arithmetic task", () => {
  it("has every 2-digit pair as a prompt, split deterministically by seed", () => {
    expect(arithmeticPromptPool().length).toBe(8100);
    const a = createArithmeticTask({ seed: 1 });
    expect(a.prompts).toEqual(createArithmeticTask({ seed: 1 }).prompts);
    expect(a.prompts.eval).not.toEqual(createArithmeticTask({ seed: 2 }).prompts.eval);
    expect(a.prompts.eval.length).toBe(256);
    expect(a.prompts.train.length).toBe(8100 - 256);
    const train = new Set(a.prompts.train);
    expect(a.prompts.eval.some((p) => train.has(p))).toBe(false);
    for (const p of a.prompts.eval) expect(p).toMatch(/^[1-9][0-9]\+[1-9][0-9]=$/);
  });

  it("follows the operand options and validates them", () => {
    const t = createArithmeticTask({ minOperand: 0, maxOperand: 9, evalSize: 10 });
    expect(t.prompts.train.length + t.prompts.eval.length).toBe(100);
    expect(() => createArithmeticTask({ minOperand: 5, maxOperand: 4 })).toThrow(RangeError);
    expect(() => createArithmeticTask({ formatScore: 1 })).toThrow(RangeError);
    expect(() => createArithmeticTask({ passK: [0] })).toThrow(RangeError);
    expect(() => createArithmeticTask({ evalSize: 8100 })).toThrow(RangeError);
  });

  it("evaluates pass@k, gold, format rate and length", () => {
    const task = createArithmeticTask({ passK: [1, 2, 4], formatScore: 0.1 });
    const m = task.evaluate([
      { prompt: "10+10=", completions: ["20", "21", "x", "20"] }, // c = 2
      { prompt: "11+11=", completions: ["23", "23", "", "5"] }, // c = 0
    ]);
    expect(m["pass@1"]).toBeCloseTo((2 / 4 + 0) / 2, 12);
    expect(m["pass@2"]).toBeCloseTo((passAtK(4, 2, 2) + 0) / 2, 12);
    expect(m["pass@4"]).toBeCloseTo(0.5, 12);
    expect(m.gold_mean).toBeCloseTo((1 + 0.1 + 0 + 1 + 0.1 + 0.1 + 0 + 0.1) / 8, 12);
    expect(m.format_rate).toBeCloseTo(6 / 8, 12);
    expect(m.length_mean).toBeCloseTo((2 + 2 + 1 + 2 + 2 + 2 + 0 + 1) / 8, 12);
    // k larger than the samples of some prompt: not reported.
    const few = task.evaluate([{ prompt: "10+10=", completions: ["20", "1"] }]);
    expect("pass@4" in few).toBe(false);
    expect(few["pass@2"]).toBe(1);
  });

  it("streams a+b=c pretraining lines from the given prompts, seeded, epoch by epoch", () => {
    const task = createArithmeticTask();
    const take = (seed: number, n: number) => {
      const out: string[] = [];
      for (const line of arithmeticLines(task.prompts.train, seed)) {
        out.push(line);
        if (out.length === n) break;
      }
      return out;
    };
    const lines = take(7, task.prompts.train.length);
    expect(take(7, 50)).toEqual(lines.slice(0, 50));
    expect(take(8, 50)).not.toEqual(lines.slice(0, 50));
    expect(new Set(lines).size).toBe(task.prompts.train.length); // one epoch = each train prompt once
    const evalSet = new Set(task.prompts.eval);
    for (const line of lines) {
      const [, a, b, c] = /^(\d+)\+(\d+)=(\d+)$/.exec(line)!;
      expect(Number(a) + Number(b)).toBe(Number(c));
      expect(evalSet.has(`${a}+${b}=`)).toBe(false);
    }
    expect(() => arithmeticLines([], 0).next()).toThrow(RangeError);
  });
});
