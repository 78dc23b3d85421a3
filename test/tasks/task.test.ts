import { describe, expect, it } from "vitest";
import { loadTask, TASK_IDS } from "../../src/tasks/index";
import { completionText, splitPrompts, tokenizerPathOf } from "../../src/tasks/task";
import { readTokenizerFile } from "../../src/tokenizer/node";

describe("splitPrompts", () => {
  const pool = Array.from({ length: 100 }, (_, i) => `p${i}`);

  it("is a deterministic, seed-dependent partition of the deduplicated pool", () => {
    const a = splitPrompts([...pool, "p3", "p4"], 7, 10);
    expect(a).toEqual(splitPrompts(pool, 7, 10));
    expect(a.eval.length).toBe(10);
    expect(a.train.length).toBe(90);
    expect(new Set([...a.train, ...a.eval])).toEqual(new Set(pool));
    expect(splitPrompts(pool, 8, 10).eval).not.toEqual(a.eval);
  });

  it("rejects eval sizes that leave no train or no eval prompt", () => {
    for (const n of [0, 100, 2.5]) expect(() => splitPrompts(pool, 0, n)).toThrow(RangeError);
  });
});

describe("completionText", () => {
  const tok = readTokenizerFile("public/models/arithmetic/tokenizer.json");
  const ids = (s: string) => tok.encode(s);

  it("is the decoded text up to (not including) the first EOS", () => {
    const row = [...ids("82"), tok.eosId, tok.padId, tok.padId];
    expect(completionText(row, tok)).toEqual({ text: "82", finished: true });
    expect(completionText(Int32Array.from([...ids("8"), tok.eosId, ...ids("9")]), tok).text).toBe("8");
  });

  it("is every token when there is no EOS, and empty when EOS comes first", () => {
    expect(completionText(ids("8282"), tok)).toEqual({ text: "8282", finished: false });
    expect(completionText([tok.eosId, ...ids("1")], tok)).toEqual({ text: "", finished: true });
    expect(completionText([], tok)).toEqual({ text: "", finished: false });
  });

  it("keeps other special tokens literally so the text re-encodes to the same ids", () => {
    const row = [...ids("8"), tok.unkId, tok.bosId, ...ids("2")];
    const { text } = completionText([...row, tok.eosId], tok);
    expect(text).toBe("8<unk><bos>2");
    expect(tok.encode(text)).toEqual(row);
  });
});

describe("task registry", () => {
  it("builds every task with the common interface", async () => {
    for (const id of TASK_IDS) {
      const task = await loadTask(id, { seed: 1, evalSize: 32 });
      expect(task.id).toBe(id);
      expect(task.tokenizerPath).toBe(tokenizerPathOf(id));
      const tok = readTokenizerFile(`public/${task.tokenizerPath}`);
      expect(task.prompts.eval.length).toBe(32);
      for (const p of task.prompts.eval) expect(tok.encode(p)).not.toContain(tok.unkId);
      const [lo, hi] = task.goldRange;
      const g = task.gold(task.prompts.eval[0], "");
      expect(g).toBeGreaterThanOrEqual(lo);
      expect(g).toBeLessThanOrEqual(hi);
      const m = task.evaluate([
        { prompt: task.prompts.eval[0], completions: ["1", "2", "3", "4", "5", "6", "7", "8"] },
      ]);
      for (const info of task.metrics) expect(Number.isFinite(m[info.key])).toBe(true);
    }
    await expect(loadTask("poetry" as never)).rejects.toThrow(/unknown task/);
  });
});
