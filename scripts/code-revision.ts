/**
 * The code revision a script ran at, for the models manifest (scripts/models-manifest.ts `code_revision`):
 * `git rev-parse HEAD` and whether the working tree had uncommitted changes. The scripts' own outputs
 * (public/models/, where a run writes its files and the manifest before it is done) do not count as changes; any
 * other modified, staged, deleted or untracked (not ignored) file does.
 */
import { execFileSync } from "node:child_process";

/** `commit`: 40 hex digits; `dirty`: uncommitted changes outside public/models/ at the time of the call. */
export interface CodeRevision {
  commit: string;
  dirty: boolean;
}

/** Paths whose changes do not make a revision dirty: what the scripts write. */
export const OUTPUT_DIR = "public/models";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/**
 * The revision of the repository at `cwd` (default: the current folder) now.
 * @returns null when `cwd` is not in a git working tree or git is missing (a tarball): no revision to record.
 */
export function codeRevision(cwd = "."): CodeRevision | null {
  try {
    const commit = git(cwd, "rev-parse", "HEAD").trim();
    const changes = git(cwd, "status", "--porcelain", "--", ".", `:(exclude,top)${OUTPUT_DIR}`);
    return { commit, dirty: changes.trim() !== "" };
  } catch {
    return null;
  }
}
