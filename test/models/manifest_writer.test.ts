/**
 * scripts/models-manifest.ts `recordShipped` in a scratch git repository: every entry it writes names the code
 * revision (HEAD and whether the tree had uncommitted changes outside public/models/), so a shipped file can be
 * traced to the script version that made it. Before, entries held no revision at all.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codeRevision } from "../../scripts/code-revision";
import { readManifest, recordShipped } from "../../scripts/models-manifest";

const repo = mkdtempSync(join(tmpdir(), "manifest-rev-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: repo,
    encoding: "utf8",
  });
const put = (path: string, text: string) => {
  mkdirSync(join(repo, path, ".."), { recursive: true });
  writeFileSync(join(repo, path), text);
};

describe("recordShipped records the code revision", () => {
  git("init", "-q");
  put("scripts/make.ts", "// the script\n");
  put("public/models/t/a.json", "{}\n");
  git("add", ".");
  git("commit", "-q", "-m", "one");
  const head = git("rev-parse", "HEAD").trim();
  const places = {
    repo,
    publicDir: join(repo, "public"),
    manifestPath: join(repo, "public/models/manifest.json"),
  };

  it("a clean tree: HEAD, not dirty — the script's own outputs under public/models/ do not count", () => {
    put("public/models/t/a.json", '{"new": 1}\n'); // the file just written, uncommitted
    const e = recordShipped("models/t/a.json", "tokenizer", "arithmetic", { vocab_size: 3 }, places);
    expect(e.code_revision).toEqual({ commit: head, dirty: false });
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(readManifest(places.manifestPath).files[0]).toEqual(e);
    expect(Object.keys(e).slice(0, 6)).toEqual(["path", "kind", "task", "sha256", "bytes", "code_revision"]);
  });

  it("uncommitted code (modified or untracked) makes it dirty", () => {
    put("scripts/make.ts", "// changed\n");
    expect(recordShipped("models/t/a.json", "sft", "arithmetic", {}, places).code_revision).toEqual({
      commit: head,
      dirty: true,
    });
    git("checkout", "--", "scripts/make.ts");
    put("scripts/new.ts", "// untracked\n");
    expect(codeRevision(repo)).toEqual({ commit: head, dirty: true });
    rmSync(join(repo, "scripts/new.ts"));
    expect(codeRevision(repo)).toEqual({ commit: head, dirty: false });
  });

  it("a revision given in the facts wins (taken when the run started, or null: not known)", () => {
    const then = { commit: "a".repeat(40), dirty: true };
    expect(
      recordShipped("models/t/a.json", "sft", "arithmetic", { code_revision: then }, places).code_revision,
    ).toBe(then);
    expect(
      recordShipped("models/t/a.json", "sft", "arithmetic", { code_revision: null }, places).code_revision,
    ).toBeNull();
  });

  it("outside a git tree there is no revision: null, not a guess", () => {
    const bare = mkdtempSync(join(tmpdir(), "no-git-"));
    try {
      expect(codeRevision(bare)).toBeNull();
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
