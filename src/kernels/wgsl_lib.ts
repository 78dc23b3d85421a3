/**
 * WGSL has no includes: the shared pieces of several shaders live in src/shaders/lib/ and are pasted in where a
 * shader says `// #include <name>` (a whole line, optionally followed by a comment). The vocabulary-row kernels
 * share their workgroup reductions (reduce_vec2) and their normaliser passes (logit_rows, kl_rows) this way
 * (vocab_rows.ts), so each is written once.
 */
import klRows from "../shaders/lib/kl_rows.wgsl?raw";
import logitRows from "../shaders/lib/logit_rows.wgsl?raw";
import reduceVec2 from "../shaders/lib/reduce_vec2.wgsl?raw";

/** The shared WGSL pieces by include name. */
export const WGSL_LIB: Readonly<Record<string, string>> = {
  reduce_vec2: reduceVec2,
  logit_rows: logitRows,
  kl_rows: klRows,
};

const INCLUDE = /^\/\/ #include (\S+)(?: .*)?$/m;

/** A linked shader: its code, and where each of its lines was written. */
export interface LinkedWgsl {
  code: string;
  /**
   * Where line `line` (1-based) of `code` was written: `<file>:<line>` of the shader, or `lib/<piece>.wgsl:<line>`
   * inside an include (a line past the end reads as the shader's file and that number).
   */
  origin: (line: number) => string;
}

/**
 * `source` with each `// #include <name>` line replaced by `lib[name]` (one level: a piece includes nothing), and
 * a map from the linked lines back to `file` (e.g. "softmax.wgsl") and the pieces, for compile errors.
 * @throws RangeError naming the shader when it includes a name `lib` does not have, or the same name twice
 *   (its declarations would clash).
 */
export function linkWgslMapped(
  file: string,
  source: string,
  lib: Readonly<Record<string, string>> = WGSL_LIB,
): LinkedWgsl {
  const seen = new Set<string>();
  const out: string[] = [];
  const where: string[] = [];
  source.split("\n").forEach((line, i) => {
    const m = INCLUDE.exec(line);
    if (!m) {
      out.push(line);
      where.push(`${file}:${i + 1}`);
      return;
    }
    const name = m[1];
    const piece = lib[name];
    if (piece === undefined)
      throw new RangeError(
        `shader ${file}: #include ${name}: no such piece (have ${Object.keys(lib).join(", ")})`,
      );
    if (seen.has(name)) throw new RangeError(`shader ${file}: #include ${name} twice`);
    seen.add(name);
    const pasted = line.replace(INCLUDE, () => piece.trimEnd()).split("\n");
    pasted.forEach((l, k) => {
      out.push(l);
      where.push(`lib/${name}.wgsl:${k + 1}`);
    });
  });
  return { code: out.join("\n"), origin: (line) => where[line - 1] ?? `${file}:${line}` };
}

/** {@link linkWgslMapped}'s code alone. @throws as linkWgslMapped. */
export function linkWgsl(
  shader: string,
  source: string,
  lib: Readonly<Record<string, string>> = WGSL_LIB,
): string {
  return linkWgslMapped(shader, source, lib).code;
}
