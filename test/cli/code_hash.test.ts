/**
 * The training code's fingerprint (cli/lab/code_hash.ts) that `lab lesson --reuse` keys logs on: it changes with
 * the code that trains, not with the page, the lessons' checks and notes, hidden editor files or links (a
 * reviewer's dangling Emacs lock crashed it, and a change to a lesson's check made every log unreusable).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { trainingCodeHash } from "../../cli/lab/code_hash";

const root = mkdtempSync(join(tmpdir(), "code-hash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const put = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};

describe("the training code's fingerprint", () => {
  it("follows the code that trains, and nothing else", () => {
    put("src/algorithms/ppo.ts", "export const a = 1;");
    put("src/shaders/matmul.wgsl", "fn main() {}");
    put("cli/lab/lesson.ts", "export {}");
    put("public/models/manifest.json", "{}");
    put("src/ui/App.tsx", "x");
    put("src/lab/presets/checks.ts", "x");
    const base = trainingCodeHash(root);
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    // The page, the lessons' checks and notes, hidden files, a dangling link, a non-source file: no change.
    put("src/ui/App.tsx", "y");
    put("src/lab/presets/checks.ts", "y");
    put("src/algorithms/.ppo.ts.swp", "swap");
    symlinkSync(join(root, "nowhere.ts"), join(root, "src/algorithms/.#ppo.ts"));
    symlinkSync(join(root, "nowhere.ts"), join(root, "src/algorithms/linked.ts"));
    put("src/algorithms/notes.md", "# notes");
    expect(trainingCodeHash(root)).toBe(base);
    // The code that trains: a change.
    put("src/shaders/matmul.wgsl", "fn main() { }");
    const kernel = trainingCodeHash(root);
    expect(kernel).not.toBe(base);
    put("public/models/manifest.json", '{"files":[]}');
    expect(trainingCodeHash(root)).not.toBe(kernel);
  });
});
