/**
 * The code maps for students (docs/how-a-step-runs.md, docs/notation.md) name files, classes and methods; they
 * must keep pointing at code that exists. Every backticked path (`src/…`, `test/…`, `docs/…`, or a short one
 * such as `math/grpo.ts`, matched by its ending under src/), every relative markdown link, and every
 * `Class.method` they name must be found, and the step map must have a row for every algorithm id; a rename
 * or a new algorithm that leaves them stale fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const DOCS = ["docs/how-a-step-runs.md", "docs/notation.md"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const SRC_FILES = files(join(ROOT, "src")).map((p) => relative(ROOT, p));
const SRC_TEXT = SRC_FILES.filter((p) => /\.tsx?$/.test(p))
  .map((p) => readFileSync(join(ROOT, p), "utf8"))
  .join("\n");

/** Whether src/ declares `name`: a function, const, method or field (at a line's start, after modifiers). */
function defined(name: string): boolean {
  const modifiers =
    "(?:(?:export|private|protected|public|readonly|static|async|override|abstract|function|const|let)\\s+)*";
  return new RegExp(`^\\s*${modifiers}${name}\\s*[(:=<?]`, "m").test(SRC_TEXT);
}

/** Backticked spans of a markdown text. */
function spans(md: string): string[] {
  return [...md.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
}

describe.each(DOCS)("%s points at code that exists", (doc) => {
  const md = readFileSync(join(ROOT, doc), "utf8");
  const code = spans(md);

  it("names some paths and classes (the parser found them)", () => {
    expect(code.filter((s) => /\.(ts|wgsl)$/.test(s)).length).toBeGreaterThan(5);
  });

  it("every backticked file path exists", () => {
    const missing: string[] = [];
    for (const s of code) {
      if (!/^[\w./-]+\.(ts|tsx|wgsl|md|json)$/.test(s) || s.startsWith("../")) continue;
      if (/^(src|test|docs)\//.test(s)) {
        if (!existsSync(join(ROOT, s))) missing.push(s);
      } else if (!SRC_FILES.some((p) => p.endsWith(`/${s}`))) missing.push(s);
    }
    expect(missing).toEqual([]);
  });

  it("every relative markdown link exists", () => {
    const links = [...md.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^https?:/.test(l));
    const missing = links.filter((l) => !existsSync(resolve(ROOT, dirname(doc), l)));
    expect(missing).toEqual([]);
  });

  it("every `Class.method` named is defined", () => {
    const missing: string[] = [];
    for (const s of code) {
      const m = /^([A-Z]\w+)\.([a-z]\w*)$/.exec(s);
      if (!m) continue;
      const [, cls, method] = m;
      if (!new RegExp(`(class|interface) ${cls}\\b`).test(SRC_TEXT)) missing.push(`${s} (no class ${cls})`);
      else if (!defined(method)) missing.push(`${s} (no member ${method})`);
    }
    expect(missing).toEqual([]);
  });

  it("every camelCase identifier named is defined in src/", () => {
    const names = code.filter((s) => /^[a-z]\w*[A-Z]\w*$/.test(s));
    expect(names.filter((n) => !defined(n))).toEqual([]);
  });
});

describe("docs/how-a-step-runs.md", () => {
  it("has a row for every algorithm of src/lab/algo_ids.ts", () => {
    const ids = readFileSync(join(ROOT, "src/lab/algo_ids.ts"), "utf8");
    const union = /export type AlgoId =([^;]+);/.exec(ids)?.[1] ?? "";
    const algos = [...union.matchAll(/"(\w+)"/g)].map((m) => m[1]);
    expect(algos.length).toBeGreaterThan(5);
    const md = readFileSync(join(ROOT, "docs/how-a-step-runs.md"), "utf8");
    expect(algos.filter((a) => !new RegExp(`^\\| \`${a}\`\\s+\\|`, "m").test(md))).toEqual([]);
  });
});
