/**
 * What the build stamps into the lab so that an export can be cited (src/lab/build_info.ts reads it): the lab's
 * version (package.json), the git commit it was built from (short SHA, "-dirty" when the tree has uncommitted
 * changes, "unknown" without git or outside a repository — CI builds from a clean clone), and the SHA-256 of
 * each shipped model file (public/models/manifest.json: the sft and reward-model entries, path → sha256).
 *
 * One source for every build: vite.config.ts and vitest.config.ts pass {@link buildDefines} to `define`. The
 * Node CLI and scripts define nothing: build_info.ts then reads "unknown" and no digests.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The build's stamp (the shape of src/lab/build_info.ts's LabBuild). */
export interface BuildStamp {
  version: string;
  commit: string;
  /** Shipped model path ("models/arithmetic/sft.safetensors") → its SHA-256 (hex), from the manifest. */
  models: Record<string, string>;
}

/** The git commit of the working tree: "ebac38d", "ebac38d-dirty", or "unknown" when git cannot say. */
export function gitCommit(cwd = root): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd, encoding: "utf8", stdio: "pipe" }).trim();
    const sha = git("rev-parse", "--short", "HEAD");
    return git("status", "--porcelain", "--untracked-files=no") ? `${sha}-dirty` : sha;
  } catch {
    return "unknown";
  }
}

/** The shipped model files' SHA-256 by path (sft and reward-model entries of public/models/manifest.json). */
export function shippedModelDigests(cwd = root): Record<string, string> {
  try {
    const m = JSON.parse(readFileSync(`${cwd}/public/models/manifest.json`, "utf8")) as {
      files: { path: string; kind: string; sha256: string }[];
    };
    return Object.fromEntries(
      m.files.filter((f) => f.kind === "sft" || f.kind === "reward-model").map((f) => [f.path, f.sha256]),
    );
  } catch {
    return {};
  }
}

/** The stamp of this checkout. */
export function buildStamp(cwd = root): BuildStamp {
  const pkg = JSON.parse(readFileSync(`${cwd}/package.json`, "utf8")) as { version: string };
  return { version: pkg.version, commit: gitCommit(cwd), models: shippedModelDigests(cwd) };
}

/** Vite's / vitest's `define`: `__LAB_BUILD__` → the stamp as a JSON literal. */
export function buildDefines(cwd = root): Record<string, string> {
  return { __LAB_BUILD__: JSON.stringify(buildStamp(cwd)) };
}
