/**
 * The run-time tokenizer: a Hugging Face `tokenizer.json` loaded with `@huggingface/tokenizers` (the
 * zero-dependency JS port of HF tokenizers used by transformers.js; ~37 kB, works in the page and in Node),
 * behind the small API the lab needs.
 *
 * Our files are character-level (see ./build.ts): one token per Unicode code point of the task's corpus, ids
 * 0..3 = `<pad>`, `<bos>`, `<eos>`, `<unk>`. Encoding is lossless for text made of vocabulary characters;
 * any other character becomes one `<unk>` and decodes as the literal text "<unk>" (lossy by design).
 * The strings "<pad>", "<bos>", "<eos>", "<unk>" inside a text are matched as those special tokens (HF
 * added-token behaviour), so `encode("<bos>hi<eos>")` = [bosId, h, i, eosId].
 */
import { Tokenizer as HfTokenizer } from "@huggingface/tokenizers";
import { MAX_VOCAB, SPECIAL_TOKENS } from "./build";

/** A tokenizer file that cannot be used: not JSON, not a tokenizer, missing special tokens, vocab too large. */
export class TokenizerError extends Error {
  override name = "TokenizerError";
}

export interface EncodeOptions {
  /** Prepend `<bos>`. Default false. */
  bos?: boolean;
  /** Append `<eos>`. Default false. */
  eos?: boolean;
}

export interface DecodeOptions {
  /** Drop `<pad>`, `<bos>`, `<eos>` and `<unk>` from the text. Default false (they appear literally). */
  skipSpecialTokens?: boolean;
}

export class Tokenizer {
  /** V: ids are 0..V−1 (special tokens included); ≤ 1024. */
  readonly vocabSize: number;
  readonly padId: number;
  readonly bosId: number;
  readonly eosId: number;
  readonly unkId: number;
  private readonly idToTok: string[];

  /** Use {@link parseTokenizer}; this constructor trusts its arguments. */
  constructor(
    private readonly hf: HfTokenizer,
    vocab: Map<string, number>,
  ) {
    this.idToTok = [];
    for (const [tok, id] of vocab) this.idToTok[id] = tok;
    this.vocabSize = this.idToTok.length;
    const id = (t: string) => vocab.get(t)!;
    this.padId = id("<pad>");
    this.bosId = id("<bos>");
    this.eosId = id("<eos>");
    this.unkId = id("<unk>");
  }

  /**
   * Token ids of `text` (no BOS/EOS unless asked). Empty text → [] (or just the asked specials).
   * Unknown characters → `unkId`, one per code point.
   */
  encode(text: string, opts: EncodeOptions = {}): number[] {
    const ids = text.length > 0 ? this.hf.encode(text, { add_special_tokens: false }).ids : [];
    if (opts.bos) ids.unshift(this.bosId);
    if (opts.eos) ids.push(this.eosId);
    return ids;
  }

  /**
   * The text of `ids`. decode(encode(t)) = t when every character of t is in the vocabulary.
   * @throws RangeError on an id that is not an integer in [0, V).
   */
  decode(ids: ArrayLike<number>, opts: DecodeOptions = {}): string {
    const list = Array.from(ids);
    for (const id of list)
      if (!Number.isInteger(id) || id < 0 || id >= this.vocabSize)
        throw new RangeError(`token id ${id} is outside the vocabulary [0, ${this.vocabSize})`);
    if (list.length === 0) return "";
    return this.hf.decode(list, { skip_special_tokens: opts.skipSpecialTokens ?? false });
  }

  /** The token string of `id` (a character, or a special token's name); undefined outside [0, V). */
  idToToken(id: number): string | undefined {
    return this.idToTok[id];
  }

  /** The id of a token string, or undefined if it is not in the vocabulary. */
  tokenToId(token: string): number | undefined {
    return this.hf.token_to_id(token);
  }

  /** True for `<pad>`, `<bos>`, `<eos>`, `<unk>`. */
  isSpecial(id: number): boolean {
    return id === this.padId || id === this.bosId || id === this.eosId || id === this.unkId;
  }
}

/**
 * A {@link Tokenizer} from a parsed tokenizer.json.
 * @throws TokenizerError if the object is not a tokenizer the library can build, lacks one of `<pad>`,
 *   `<bos>`, `<eos>`, `<unk>`, has ids that are not exactly 0..V−1, or has V > 1024.
 */
export function parseTokenizer(json: unknown): Tokenizer {
  if (typeof json !== "object" || json === null || !("model" in json))
    throw new TokenizerError("not a Hugging Face tokenizer.json: no `model` field");
  let hf: HfTokenizer;
  try {
    // clean_up_tokenization_spaces would rewrite " ." as "." on decode; ours must round-trip exactly.
    hf = new HfTokenizer(json, { clean_up_tokenization_spaces: false });
  } catch (e) {
    throw new TokenizerError(`tokenizer.json could not be built: ${e instanceof Error ? e.message : e}`);
  }
  const vocab = hf.get_vocab(true);
  for (const s of SPECIAL_TOKENS)
    if (!vocab.has(s)) throw new TokenizerError(`tokenizer.json has no special token "${s}"`);
  const ids = [...vocab.values()].sort((a, b) => a - b);
  if (ids.some((id, i) => id !== i))
    throw new TokenizerError(
      `token ids must be exactly 0..V−1 with no gaps or repeats (${ids.length} tokens)`,
    );
  if (ids.length > MAX_VOCAB)
    throw new TokenizerError(`vocabulary has ${ids.length} tokens, more than the model's ${MAX_VOCAB}`);
  return new Tokenizer(hf, vocab);
}

/**
 * Fetch and parse a tokenizer.json (in the page: a URL such as "models/sentiment/tokenizer.json"; in Node
 * use ./node.ts, since Node's fetch does not read files).
 * @throws TokenizerError on an HTTP error, invalid JSON, or an unusable tokenizer.
 */
export async function loadTokenizer(url: string | URL, fetchFn: typeof fetch = fetch): Promise<Tokenizer> {
  const res = await fetchFn(url);
  if (!res.ok) throw new TokenizerError(`could not fetch ${url}: HTTP ${res.status}`);
  let json: unknown;
  try {
    json = await res.json();
  } catch (e) {
    throw new TokenizerError(`${url} is not JSON: ${e instanceof Error ? e.message : e}`);
  }
  return parseTokenizer(json);
}
