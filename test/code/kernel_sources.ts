/**
 * Static reading of the kernel files for test/code/kernel_conformance.test.ts: each shader's header lines, the
 * source files that import it, the wrapper's test, and the field counts of `struct Params` and of `params()`.
 * Plain regular expressions over the text, no parser: what they cannot read the test lists as an exception.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** The repository root. */
export const ROOT = resolve(__dirname, "../..");
const SRC = join(ROOT, "src");
const SHADERS = join(SRC, "shaders");

/** Repo-relative paths of every src/shaders/*.wgsl (not lib/, whose pieces are pasted into shaders). */
export function shaderFiles(): string[] {
  return readdirSync(SHADERS)
    .filter((f) => f.endsWith(".wgsl"))
    .sort()
    .map((f) => `src/shaders/${f}`);
}

/** A repo-relative file's text. */
export function read(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

/** Whether a repo-relative path is a file. */
export function isFile(path: string): boolean {
  return existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile();
}

/** The leading comment block of a shader (its header), as text. */
export function shaderHeader(source: string): string {
  const lines = source.split("\n");
  const end = lines.findIndex((l) => l.trim() !== "" && !l.trimStart().startsWith("//"));
  return lines.slice(0, end < 0 ? lines.length : end).join("\n");
}

/** The path a header names on its "CPU twin: src/reference/….ts" line, or null. */
export function cpuTwinOf(header: string): string | null {
  return /CPU twin: (src\/reference\/[\w/]+\.ts)/.exec(header)?.[1] ?? null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return p === SHADERS ? [] : sourceFiles(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [relative(ROOT, p)] : [];
  });
}

/** Repo-relative source files under src/ that import `shader` (a src/shaders/x.wgsl path) with `?raw`. */
export function importersOf(shader: string, files = sourceFiles(SRC)): string[] {
  const name = shader.replace(/^src\/shaders\//, "");
  const spec = new RegExp(`from "(?:\\.\\./)+shaders/${name.replace(".", "\\.")}\\?raw"`);
  return files.filter((f) => spec.test(read(f)));
}

/**
 * A wrapper's test: the path its header names ("Test: test/….test.ts"), else test/kernels/<wrapper>.test.ts.
 */
export function testOf(wrapper: string): string {
  const named = /\bTest: (test\/[\w/]+\.test\.ts)/.exec(read(wrapper))?.[1];
  return named ?? `test/kernels/${wrapper.replace(/^.*\//, "").replace(/\.ts$/, "")}.test.ts`;
}

/** Whether a test's text imports the module at repo-relative `path` (x.ts, imported as ".../x"). */
export function imports(testText: string, path: string): boolean {
  const mod = path.replace(/\.ts$/, "").replace(/^src\//, "");
  return new RegExp(`from "(?:\\.\\./)+(?:src/)?${mod}"`).test(testText);
}

/** Fields of a shader's `struct Params { … }` (one `name: type` each), or null when it has none. */
export function structParamsFields(source: string): number | null {
  const body = /struct Params\s*\{([^}]*)\}/.exec(source)?.[1];
  if (body === undefined) return null;
  const code = body.replace(/\/\/.*$/gm, "");
  return code.split(",").filter((f) => /^\s*\w+\s*:\s*\w+/.test(f)).length;
}

/**
 * The field counts of every `params(…)` call in a wrapper (or the local name it imports `params` as), in order;
 * null for a call this cannot count (a spread, or a field that is not a `["u32" | "i32" | "f32", …]` tuple).
 */
export function paramsCallFields(text: string): (number | null)[] {
  const m = /import \{([^}]*)\} from "\.\.\/gpu\/uniforms"/.exec(text)?.[1] ?? "";
  const alias = /\bparams(?:\s+as\s+(\w+))?\b/.exec(m);
  if (!alias) return [];
  const name = alias[1] ?? "params";
  const out: (number | null)[] = [];
  for (const call of text.matchAll(new RegExp(`\\b${name}\\(`, "g"))) {
    let depth = 1;
    let i = (call.index ?? 0) + call[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) depth += text[i] === "(" ? 1 : text[i] === ")" ? -1 : 0;
    const args = text.slice(start, i - 1);
    const tuples = args.match(/\[\s*"(?:u32|i32|f32)"\s*,/g)?.length ?? 0;
    const topLevel = splitTopLevel(args).filter((a) => a.trim() !== "");
    out.push(args.includes("...") || tuples !== topLevel.length ? null : tuples);
  }
  return out;
}

/** `args` split at the commas outside brackets and parentheses. */
function splitTopLevel(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      parts.push(args.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(args.slice(from));
  return parts;
}
