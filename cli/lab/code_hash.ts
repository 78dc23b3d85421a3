/**
 * A fingerprint of what trains a lesson's runs: the source under src/ except the page's (src/ui, src/main.tsx),
 * the CLI's own run code (cli/lab) and the shipped models' manifest (their SHA-256s). `lab lesson --reuse yes`
 * reuses a run's log only when it was written under the same fingerprint: a log from another version of the
 * lab (DPO sampling 48 tokens where it sampled 64, say) is trained again rather than judged as if it were
 * this one's.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** What the fingerprint reads, from the repository root. */
const READ = ["src", "cli/lab", "public/models/manifest.json"];
/** Left out: the page only draws what the runs compute. */
const SKIP = new Set(["src/ui", "src/main.tsx"]);

function files(path: string, root: string): string[] {
  const rel = relative(root, path);
  if (SKIP.has(rel)) return [];
  const entries = (() => {
    try {
      return readdirSync(path, { withFileTypes: true });
    } catch {
      return null; // a file
    }
  })();
  if (!entries) return [path];
  return entries
    .map((e) => e.name)
    .sort()
    .flatMap((n) => files(join(path, n), root));
}

/** SHA-256 (hex, first 16 characters) of the training code and models' manifest under `root`. */
export function trainingCodeHash(root = process.cwd()): string {
  const h = createHash("sha256");
  for (const f of READ.flatMap((p) => files(join(root, p), root))) {
    h.update(relative(root, f));
    h.update("\0");
    h.update(readFileSync(f));
    h.update("\0");
  }
  return h.digest("hex").slice(0, 16);
}
