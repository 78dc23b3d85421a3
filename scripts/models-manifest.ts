/**
 * public/models/manifest.json: every shipped model file with what made it. Scripts that write a shipped file
 * record it here with {@link recordShipped}; test/models/shipped.test.ts checks every sha256.
 *
 * Format: { format: "rlhf-playground/models-manifest", version: 1, files: ManifestEntry[] } with `files` sorted
 * by path. Paths are relative to the public folder ("models/sentiment/sft.safetensors"), like the tokenizer
 * references inside checkpoints. Numbers measured on the machine that ran the script (run_time_s, train_time_s)
 * are facts about that run, not part of the file's identity: they live in the entry, never in a shipped file.
 *
 * Every entry has `code_revision`: the commit the script ran at and whether the working tree had uncommitted
 * changes then (scripts/code-revision.ts), or null for the entries recorded before revisions were; those carry
 * `added_in` instead, the commit that added the file to the repository (not the code that made it), and
 * `changed_in`, the later commits that replaced it, where there are some.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CodeRevision, codeRevision } from "./code-revision";

export const PUBLIC_DIR = "public";
export const MANIFEST_PATH = join(PUBLIC_DIR, "models", "manifest.json");

export type ShippedKind = "tokenizer" | "sft" | "preferences" | "reward-model";

export interface ManifestEntry {
  /** Relative to public/. */
  path: string;
  kind: ShippedKind;
  task: "sentiment" | "arithmetic";
  /** sha256 (hex) of the file's bytes. */
  sha256: string;
  bytes: number;
  /** The code that made the file ({@link CodeRevision}); null: recorded before revisions were (see `added_in`). */
  code_revision: CodeRevision | null;
  /** Kind-specific facts (config, tokenizer, data hash, steps, final loss, run time, accuracy, …). */
  [key: string]: unknown;
}

export interface Manifest {
  format: "rlhf-playground/models-manifest";
  version: 1;
  files: ManifestEntry[];
}

export function readManifest(path = MANIFEST_PATH): Manifest {
  if (!existsSync(path)) return { format: "rlhf-playground/models-manifest", version: 1, files: [] };
  return JSON.parse(readFileSync(path, "utf8")) as Manifest;
}

/** sha256 and size of a file under `publicDir` (default public/). */
export function fileDigest(publicPath: string, publicDir = PUBLIC_DIR): { sha256: string; bytes: number } {
  const bytes = readFileSync(join(publicDir, publicPath));
  return { sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
}

/** Where {@link recordShipped} reads and writes (defaults: the shipped folder, the current git tree). */
export interface RecordPlaces {
  manifestPath?: string;
  publicDir?: string;
  /** The git working tree whose revision is recorded. */
  repo?: string;
}

/**
 * Add or replace the entry of `publicPath` (sha256 and bytes computed from the file now) and write the
 * manifest. Other entries are kept. `code_revision` is `facts.code_revision` when the facts have that key (a
 * script that took it when it started, or a run made elsewhere: scripts/train-rm/record.ts), else
 * {@link codeRevision} now.
 */
export function recordShipped(
  publicPath: string,
  kind: ShippedKind,
  task: ManifestEntry["task"],
  facts: Record<string, unknown> = {},
  { manifestPath = MANIFEST_PATH, publicDir = PUBLIC_DIR, repo = "." }: RecordPlaces = {},
): ManifestEntry {
  const m = readManifest(manifestPath);
  const revision =
    "code_revision" in facts ? (facts.code_revision as CodeRevision | null) : codeRevision(repo);
  const entry: ManifestEntry = {
    path: publicPath,
    kind,
    task,
    ...fileDigest(publicPath, publicDir),
    code_revision: revision,
    ...facts,
  };
  m.files = [...m.files.filter((f) => f.path !== publicPath), entry].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  writeFileSync(manifestPath, `${JSON.stringify(m, null, 2)}\n`);
  return entry;
}

/** A command-line argument as a POSIX shell reads it back: single-quoted when it holds anything but [\w./:=+-]. */
export function shellQuote(arg: string): string {
  return /^[\w./:=+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
