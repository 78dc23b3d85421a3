import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pipelinePairs, RM_PAIRS_FILE } from "../../src/lab/pipeline/pairs";
import { readTokenizerFile } from "../../src/tokenizer/node";

const tok = readTokenizerFile("public/models/arithmetic/tokenizer.json");
const line = (split: string, chosen = "85") =>
  JSON.stringify({
    task: "arithmetic",
    prompt: "18+66=",
    chosen,
    rejected: "84",
    score_chosen: 1,
    score_rejected: 0,
    flipped: false,
    tie: false,
    split,
  });

describe("the Pipeline's preference pairs (stage 2)", () => {
  it("splits the shipped arithmetic reward model's file into its train and held-out pairs", () => {
    expect(RM_PAIRS_FILE.arithmetic).toBe("rm-preferences.jsonl");
    const text = readFileSync("public/models/arithmetic/rm-preferences.jsonl", "utf8");
    const p = pipelinePairs("arithmetic", text, tok, 6);
    expect([p.train.length, p.eval.length]).toEqual([9673, 327]); // as public/models/manifest.json records
  });

  it("names the file in every error", () => {
    expect(() => pipelinePairs("arithmetic", null, tok, 6)).toThrow(
      "the arithmetic task ships no preference pairs (models/arithmetic/rm-preferences.jsonl)",
    );
    expect(() => pipelinePairs("arithmetic", "{nope", tok, 6)).toThrow(
      /^models\/arithmetic\/rm-preferences\.jsonl: /,
    );
    expect(() => pipelinePairs("arithmetic", `${line("train")}\n${line("train", "86")}`, tok, 6)).toThrow(
      "models/arithmetic/rm-preferences.jsonl needs train and eval pairs",
    );
    const ok = pipelinePairs("arithmetic", `${line("train")}\n${line("eval")}`, tok, 6);
    expect([ok.train.length, ok.eval.length]).toEqual([1, 1]);
  });

  it("puts EOS after a completion only if it ended (shorter than the task's 6 new tokens)", () => {
    const p = pipelinePairs("arithmetic", `${line("train", "848484")}\n${line("eval", "8")}`, tok, 6);
    const seq = (t: string, eos: boolean) => [tok.bosId, ...tok.encode(t), ...(eos ? [tok.eosId] : [])];
    expect(p.train[0].chosen).toEqual(seq("18+66=848484", false)); // 6 tokens: cut at the limit
    expect(p.train[0].rejected).toEqual(seq("18+66=84", true));
    expect(p.eval[0].chosen).toEqual(seq("18+66=8", true));
  });
});
