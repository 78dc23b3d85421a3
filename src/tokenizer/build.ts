/**
 * Build a character-level tokenizer from a corpus, as a Hugging Face `tokenizer.json` object.
 *
 * Layout (the only subset {@link parseTokenizer} must understand, though any HF tokenizer with our four
 * special tokens loads):
 * - ids 0..3: the special tokens `<pad>`, `<bos>`, `<eos>`, `<unk>` (in `added_tokens`, `special: true`);
 * - ids 4..V−1: every distinct Unicode code point of the corpus, sorted by code point (so the same corpus
 *   always gives the same ids, whatever order its pieces come in);
 * - model `BPE` with an empty merge list: each character is its own token, characters outside the vocabulary
 *   become `<unk>` (one per code point); no normaliser, no pre-tokeniser, no post-processor (so encoding adds
 *   no BOS/EOS by itself), decoder `Fuse` (tokens are concatenated, nothing inserted between them).
 *
 * The same file loads in the Rust `tokenizers` library (checked by hand with tokenizers 0.22: identical ids
 * and decodes) and in `@huggingface/tokenizers` (what {@link parseTokenizer} uses).
 */

/** Special tokens, in id order: `<pad>` = 0, `<bos>` = 1, `<eos>` = 2, `<unk>` = 3. */
export const SPECIAL_TOKENS = ["<pad>", "<bos>", "<eos>", "<unk>"] as const;

/** Largest vocabulary the model accepts (GPTConfig.V ≤ 1024), special tokens included. */
export const MAX_VOCAB = 1024;

/** One entry of `added_tokens` in a Hugging Face tokenizer.json. */
export interface HfAddedToken {
  id: number;
  content: string;
  single_word: boolean;
  lstrip: boolean;
  rstrip: boolean;
  normalized: boolean;
  special: boolean;
}

/** The tokenizer.json we write (a subset of the Hugging Face format, version "1.0"). */
export interface HfTokenizerJson {
  version: "1.0";
  truncation: null;
  padding: null;
  added_tokens: HfAddedToken[];
  normalizer: null;
  pre_tokenizer: null;
  post_processor: null;
  decoder: { type: "Fuse" };
  model: {
    type: "BPE";
    dropout: null;
    unk_token: string;
    continuing_subword_prefix: null;
    end_of_word_suffix: null;
    fuse_unk: false;
    byte_fallback: false;
    ignore_merges: false;
    vocab: Record<string, number>;
    merges: [];
  };
}

/**
 * The sorted set of code points of `corpus` (each string iterated by code point, so a surrogate pair is one
 * character). Special-token strings are not special here: "<" and ">" would be ordinary characters.
 */
export function corpusAlphabet(corpus: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const piece of corpus) for (const ch of piece) seen.add(ch);
  return [...seen].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
}

/**
 * The tokenizer.json object for a character-level tokenizer of `corpus` (deterministic: same characters →
 * same JSON). Vocabulary size V = 4 + number of distinct characters.
 * @throws RangeError if V > {@link MAX_VOCAB} or the corpus is empty.
 */
export function buildCharTokenizerJson(corpus: Iterable<string>): HfTokenizerJson {
  const alphabet = corpusAlphabet(corpus);
  if (alphabet.length === 0)
    throw new RangeError("corpus is empty: no characters to build a vocabulary from");
  const V = SPECIAL_TOKENS.length + alphabet.length;
  if (V > MAX_VOCAB)
    throw new RangeError(`corpus has ${alphabet.length} distinct characters: vocabulary ${V} > ${MAX_VOCAB}`);
  const vocab: Record<string, number> = {};
  SPECIAL_TOKENS.forEach((s, i) => {
    vocab[s] = i;
  });
  alphabet.forEach((ch, i) => {
    vocab[ch] = SPECIAL_TOKENS.length + i;
  });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: null,
    pre_tokenizer: null,
    post_processor: null,
    decoder: { type: "Fuse" },
    model: {
      type: "BPE",
      dropout: null,
      unk_token: "<unk>",
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: [],
    },
  };
}

/**
 * Serialise a tokenizer.json object deterministically (2-space JSON, trailing newline). Key order is the
 * JavaScript one, so digit keys such as "7" come first in `vocab`; ids, not key order, define the vocabulary.
 */
export function stringifyTokenizerJson(json: HfTokenizerJson): string {
  return `${JSON.stringify(json, null, 2)}\n`;
}
