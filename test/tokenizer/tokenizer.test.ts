import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tokenizerCorpus, tokenizerFileText } from "../../scripts/build-tokenizer";
import { buildCharTokenizerJson, corpusAlphabet, MAX_VOCAB, SPECIAL_TOKENS } from "../../src/tokenizer/build";
import { readTokenizerFile } from "../../src/tokenizer/node";
import { loadTokenizer, parseTokenizer, TokenizerError } from "../../src/tokenizer/tokenizer";

const small = () => parseTokenizer(buildCharTokenizerJson(["hello world.", "Ahoy!"]));

describe("character tokenizer", () => {
  it("puts the special tokens first and the characters after, sorted by code point", () => {
    const tok = small();
    expect([tok.padId, tok.bosId, tok.eosId, tok.unkId]).toEqual([0, 1, 2, 3]);
    const alphabet = corpusAlphabet(["hello world.", "Ahoy!"]);
    expect(alphabet.join("")).toBe(" !.Adehlorwy");
    expect(tok.vocabSize).toBe(SPECIAL_TOKENS.length + alphabet.length);
    alphabet.forEach((ch, i) => {
      expect(tok.tokenToId(ch)).toBe(4 + i);
      expect(tok.idToToken(4 + i)).toBe(ch);
    });
  });

  it("round-trips text made of vocabulary characters, whitespace included", () => {
    const tok = small();
    for (const t of ["hello world.", " hello  ", "Ahoy! hello.", "   ", "h"]) {
      const ids = tok.encode(t);
      expect(ids.length).toBe([...t].length);
      expect(tok.decode(ids)).toBe(t);
    }
  });

  it("encodes the empty string as [] and decodes [] as the empty string", () => {
    const tok = small();
    expect(tok.encode("")).toEqual([]);
    expect(tok.decode([])).toBe("");
    expect(tok.encode("", { bos: true, eos: true })).toEqual([tok.bosId, tok.eosId]);
  });

  it("maps each unknown code point to one <unk> (lossy: decodes as the literal <unk>)", () => {
    const tok = small();
    const ids = tok.encode("hé😀\nx");
    expect(ids).toEqual([tok.tokenToId("h"), tok.unkId, tok.unkId, tok.unkId, tok.unkId]);
    expect(tok.decode(ids)).toBe("h<unk><unk><unk><unk>");
    expect(tok.decode(ids, { skipSpecialTokens: true })).toBe("h");
  });

  it("adds BOS/EOS on request, matches special-token names in text, and can skip them when decoding", () => {
    const tok = small();
    const h = tok.tokenToId("h")!;
    expect(tok.encode("h", { bos: true, eos: true })).toEqual([tok.bosId, h, tok.eosId]);
    const ids = tok.encode("<bos>h<eos><pad>");
    expect(ids).toEqual([tok.bosId, h, tok.eosId, tok.padId]);
    expect(tok.decode(ids)).toBe("<bos>h<eos><pad>");
    expect(tok.decode(ids, { skipSpecialTokens: true })).toBe("h");
    expect(tok.isSpecial(tok.unkId) && !tok.isSpecial(h)).toBe(true);
  });

  it("rejects ids outside the vocabulary when decoding", () => {
    const tok = small();
    expect(() => tok.decode([tok.vocabSize])).toThrow(RangeError);
    expect(() => tok.decode([-1])).toThrow(RangeError);
    expect(() => tok.decode([1.5])).toThrow(RangeError);
  });

  it("refuses corpora that would exceed the vocabulary limit, and empty corpora", () => {
    const many = Array.from({ length: MAX_VOCAB }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");
    expect(() => buildCharTokenizerJson([many])).toThrow(/vocabulary/);
    expect(() => buildCharTokenizerJson([""])).toThrow(/empty/);
    const fits = many.slice(0, MAX_VOCAB - SPECIAL_TOKENS.length);
    expect(parseTokenizer(buildCharTokenizerJson([fits])).vocabSize).toBe(MAX_VOCAB);
  });

  it("gives clear errors for unusable tokenizer files", () => {
    expect(() => parseTokenizer(null)).toThrow(TokenizerError);
    expect(() => parseTokenizer({ version: "1.0" })).toThrow(/no `model`/);
    const json = buildCharTokenizerJson(["ab"]);
    const noEos = structuredClone(json);
    delete noEos.model.vocab["<eos>"];
    noEos.added_tokens = noEos.added_tokens.filter((t) => t.content !== "<eos>");
    expect(() => parseTokenizer(noEos)).toThrow(/<eos>/);
    const gap = structuredClone(json);
    gap.model.vocab.b = 40;
    expect(() => parseTokenizer(gap)).toThrow(/0\.\.V−1/);
    expect(() => parseTokenizer({ model: { type: "NoSuchModel" } })).toThrow(TokenizerError);
  });

  it("loads through fetch and reports HTTP and JSON errors", async () => {
    const body = JSON.stringify(buildCharTokenizerJson(["ab"]));
    const ok = (async () => new Response(body)) as unknown as typeof fetch;
    expect((await loadTokenizer("x/tokenizer.json", ok)).vocabSize).toBe(6);
    const missing = (async () => new Response("", { status: 404 })) as unknown as typeof fetch;
    await expect(loadTokenizer("x", missing)).rejects.toThrow(/HTTP 404/);
    const junk = (async () => new Response("{oops")) as unknown as typeof fetch;
    await expect(loadTokenizer("x", junk)).rejects.toThrow(/not JSON/);
    expect(() => readTokenizerFile("/nonexistent/tokenizer.json")).toThrow(TokenizerError);
  });
});

describe("shipped tokenizers", () => {
  for (const task of ["sentiment", "arithmetic"] as const) {
    it(`${task}: public/models/${task}/tokenizer.json is what the build script writes (deterministic)`, async () => {
      const onDisk = readFileSync(`public/models/${task}/tokenizer.json`, "utf8");
      expect(await tokenizerFileText(task)).toBe(onDisk);
      expect(await tokenizerFileText(task)).toBe(onDisk);
    });

    it(`${task}: the corpus round-trips and fits the model's vocabulary`, async () => {
      const tok = readTokenizerFile(`public/models/${task}/tokenizer.json`);
      expect(tok.vocabSize).toBeLessThanOrEqual(MAX_VOCAB);
      const corpus = await tokenizerCorpus(task);
      for (const piece of corpus.slice(0, 500)) {
        const ids = tok.encode(piece);
        expect(ids).not.toContain(tok.unkId);
        expect(tok.decode(ids)).toBe(piece);
      }
    });
  }

  it("arithmetic: 16 tokens, a sum encodes one token per character", () => {
    const tok = readTokenizerFile("public/models/arithmetic/tokenizer.json");
    expect(tok.vocabSize).toBe(16);
    const ids = tok.encode("37+45=82", { bos: true, eos: true });
    expect(ids.length).toBe(10);
    expect(tok.decode(ids.slice(1, -1))).toBe("37+45=82");
    expect(tok.encode("37 + 45")).toContain(tok.unkId);
  });
});
