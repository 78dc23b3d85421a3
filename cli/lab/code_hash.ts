/**
 * A fingerprint of what trains a lesson's runs: the source under src/ except the page's (src/ui, src/main.tsx)
 * and the lessons' own definitions (src/lab/presets: their checks and notes are read from the logs, and a run's
 * settings are in its identity already), the CLI's own run code (cli/lab) and the shipped models' manifest
 * (their SHA-256s). `lab lesson --reuse yes` reuses a run's log only when it was written under the same
 * fingerprint: a log from another version of the lab (DPO sampling 48 tokens where it sampled 64, say) is
 * trained again rather than judged as if it were this one's. Only source files count (.ts, .tsx, .wgsl, .json,
 * .mjs, .js), not hidden ones: an editor's lock or swap file changes nothing.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** What the fingerprint reads, from the repository root: folders, and files. */
const READ = ["src", "cli/lab", "public/models/manifest.json"];
/** Left out: the page only draws what the runs compute; the lessons' checks and notes only read the logs. */
const SKIP = new Set(["src/ui", "src/main.tsx", "src/lab/presets"]);
const SOURCE = /\.(ts|tsx|wgsl|json|mjs|js)$/;

/** The source files under folder `rel` (relative to `root`), sorted; links, hidden and other files left out. */
function sources(root: string, rel: string): string[] {
  if (SKIP.has(rel)) return [];
  return readdirSync(join(root, rel), { withFileTypes: true })
    .filter((e) => !e.name.startsWith("."))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory()) return sources(root, path);
      return e.isFile() && SOURCE.test(e.name) && !SKIP.has(path) ? [path] : [];
    });
}

/** SHA-256 (hex, first 16 characters) of the training code and models' manifest under `root`. */
export function trainingCodeHash(root = process.cwd()): string {
  const h = createHash("sha256");
  const files = READ.flatMap((p) => (SOURCE.test(p) ? [p] : sources(root, p)));
  for (const f of files) {
    h.update(f);
    h.update("\0");
    h.update(readFileSync(join(root, f)));
    h.update("\0");
  }
  return h.digest("hex").slice(0, 16);
}
