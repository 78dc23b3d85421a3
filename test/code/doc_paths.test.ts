/**
 * The code maps for students (docs/how-a-step-runs.md, docs/notation.md) name files, classes and methods; they
 * must keep pointing at code that exists. Every backticked path (`src/…`, `test/…`, `docs/…`, or a short one
 * such as `math/grpo.ts`, matched by its ending under src/), every relative markdown link, and every
 * `Class.member` (or `Class.member()`) they name must be declared in that class's own body (class_members.ts),
 * and the step map must have a row for every algorithm id; a rename, a moved method or a new algorithm that
 * leaves them stale fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { declarationBody, declaresMember, type Source } from "./class_members";

const ROOT = resolve(__dirname, "../..");
const DOCS = ["docs/how-a-step-runs.md", "docs/notation.md"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const SRC_FILES = files(join(ROOT, "src")).map((p) => relative(ROOT, p));
const SOURCES: Source[] = SRC_FILES.filter((p) => /\.tsx?$/.test(p)).map((path) => ({
  path,
  text: readFileSync(join(ROOT, path), "utf8"),
}));
const SRC_TEXT = SOURCES.map((s) => s.text).join("\n");

/** What is wrong with a doc's `Class.member` (`()` allowed), or null when the class declares the member. */
function memberProblem(sources: readonly Source[], span: string): string | null {
  const m = /^([A-Z]\w+)\.(\w+)(?:\(\))?$/.exec(span);
  if (!m) return null;
  const [, cls, member] = m;
  if (declarationBody(sources, cls) === null) return `${span} (no class ${cls})`;
  return declaresMember(sources, cls, member) ? null : `${span} (${cls} declares no ${member})`;
}

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

  it("every `Class.member` named is declared by that class", () => {
    expect(code.filter((s) => /^[A-Z]\w+\.\w+(\(\))?$/.test(s)).length).toBeGreaterThan(0);
    expect(code.map((s) => memberProblem(SOURCES, s)).filter((p) => p !== null)).toEqual([]);
  });

  it("every camelCase identifier named is defined in src/", () => {
    const names = code.filter((s) => /^[a-z]\w*[A-Z]\w*$/.test(s));
    expect(names.filter((n) => !defined(n))).toEqual([]);
  });
});

describe("a `Class.member` is checked in that class's body", () => {
  it("fails a member another class declares: RolloutEngine.collect is not PpoRun.collect", () => {
    expect(memberProblem(SOURCES, "RolloutEngine.collect")).toBeNull();
    expect(memberProblem(SOURCES, "PpoRun.collect")).toBe("PpoRun.collect (PpoRun declares no collect)");
    expect(memberProblem(SOURCES, "PpoRun.collect()")).toBe("PpoRun.collect() (PpoRun declares no collect)");
    expect(memberProblem(SOURCES, "TokenShape.Z")).toBe("TokenShape.Z (TokenShape declares no Z)");
    expect(memberProblem(SOURCES, "NoSuchRun.step")).toBe("NoSuchRun.step (no class NoSuchRun)");
  });

  it("fails a removed override (the base's method does not stand in for it)", () => {
    const dpo = SOURCES.find((s) => s.path === "src/algorithms/dpo.ts");
    if (!dpo) throw new Error("no dpo.ts");
    expect(memberProblem(SOURCES, "DpoRun.step()")).toBeNull();
    // DpoRun's step() cut out of a copy of dpo.ts: from its declaration to its closing brace.
    const start = dpo.text.search(/^ {2}(?:async )?step\(/m);
    expect(start).toBeGreaterThan(0);
    const end = dpo.text.indexOf("\n  }\n", start) + 4;
    const cut = { path: dpo.path, text: dpo.text.slice(0, start) + dpo.text.slice(end) };
    const without = SOURCES.map((s) => (s === dpo ? cut : s));
    expect(memberProblem(without, "DpoRun.step()")).toBe("DpoRun.step() (DpoRun declares no step)");
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
