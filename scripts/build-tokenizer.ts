/**
 * Build the character-level tokenizers from the tasks' corpora and write them as Hugging Face tokenizer.json:
 *
 *   npm run build-tokenizer -- [--task sentiment|arithmetic|all] [--out-dir public/models] [--check]
 *
 * Writes <out-dir>/<task>/tokenizer.json (default: both tasks) and, when <out-dir> is public/models, records
 * each in public/models/manifest.json with its command and code revision (scripts/models-manifest.ts).
 * Deterministic: the same corpus gives the same bytes. `--check` writes nothing and exits 1 if a file on disk differs from what would be written (for CI).
 * Corpora: sentiment = the cleaned Moby-Dick paragraphs (src/tasks/sentiment/book.ts); arithmetic = every
 * `a+b=c` line of the default operand range (src/tasks/arithmetic). Runs in about a second.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { scriptArgs } from "../cli/args";
import { arithmeticAnswer, arithmeticPromptPool } from "../src/tasks/arithmetic";
import { cleanBook, loadBookText } from "../src/tasks/sentiment/book";
import type { TaskId } from "../src/tasks/task";
import { buildCharTokenizerJson, stringifyTokenizerJson } from "../src/tokenizer/build";
import { parseTokenizer } from "../src/tokenizer/tokenizer";
import { codeRevision } from "./code-revision";
import { recordShipped } from "./models-manifest";

/** The text a task's tokenizer is built from. */
export async function tokenizerCorpus(task: TaskId): Promise<string[]> {
  switch (task) {
    case "sentiment":
      return cleanBook(await loadBookText());
    case "arithmetic":
      return arithmeticPromptPool().map((p) => `${p}${arithmeticAnswer(p)}`);
  }
}

/** The tokenizer.json text of a task (what the script writes). */
export async function tokenizerFileText(task: TaskId): Promise<string> {
  const corpus = await tokenizerCorpus(task);
  const text = stringifyTokenizerJson(buildCharTokenizerJson(corpus));
  // Sanity: the written file loads and round-trips its own corpus.
  const tok = parseTokenizer(JSON.parse(text));
  for (const piece of corpus)
    if (tok.decode(tok.encode(piece)) !== piece) throw new Error(`${task}: corpus text does not round-trip`);
  return text;
}

const USAGE = "usage: npm run build-tokenizer -- [--task sentiment|arithmetic|all] [--out-dir DIR] [--check]";

/** The manifest facts of a task's shipped tokenizer: its size and the command that makes it. */
export function tokenizerFacts(task: TaskId, vocabSize: number): Record<string, unknown> {
  return { vocab_size: vocabSize, command: `npm run build-tokenizer -- --task ${task}` };
}

async function main(): Promise<number> {
  const { values } = scriptArgs(USAGE, {
    options: {
      task: { type: "string", default: "all" },
      "out-dir": { type: "string", default: "public/models" },
      check: { type: "boolean", default: false },
    },
  });
  if (!["all", "sentiment", "arithmetic"].includes(values.task)) {
    console.error(`unknown --task ${values.task} (sentiment | arithmetic | all)`);
    return 2;
  }
  const tasks = values.task === "all" ? (["sentiment", "arithmetic"] as const) : [values.task as TaskId];
  const shipped = values["out-dir"].replace(/\/+$/, "") === "public/models";
  const revision = codeRevision(); // the code as the run starts
  let stale = 0;
  for (const task of tasks) {
    const path = join(values["out-dir"], task, "tokenizer.json");
    const text = await tokenizerFileText(task);
    const V = Object.keys(JSON.parse(text).model.vocab).length;
    if (values.check) {
      const same = existsSync(path) && readFileSync(path, "utf8") === text;
      console.log(`${path}: ${same ? "up to date" : "DIFFERS"} (V = ${V})`);
      if (!same) stale++;
    } else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      console.log(`wrote ${path} (V = ${V})`);
      if (shipped)
        recordShipped(`models/${task}/tokenizer.json`, "tokenizer", task, {
          ...tokenizerFacts(task, V),
          code_revision: revision,
        });
    }
  }
  return stale > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(await main());
