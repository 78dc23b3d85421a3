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

const INCLUDE = /^\/\/ #include (\S+)(?: .*)?$/gm;

/**
 * `source` with each `// #include <name>` line replaced by `lib[name]` (one level: a piece includes nothing).
 * @throws RangeError naming the shader when it includes a name `lib` does not have, or the same name twice
 *   (its declarations would clash).
 */
export function linkWgsl(
  shader: string,
  source: string,
  lib: Readonly<Record<string, string>> = WGSL_LIB,
): string {
  const seen = new Set<string>();
  return source.replace(INCLUDE, (_line, name: string) => {
    const piece = lib[name];
    if (piece === undefined)
      throw new RangeError(
        `shader ${shader}: #include ${name}: no such piece (have ${Object.keys(lib).join(", ")})`,
      );
    if (seen.has(name)) throw new RangeError(`shader ${shader}: #include ${name} twice`);
    seen.add(name);
    return piece.trimEnd();
  });
}
