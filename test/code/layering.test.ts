/**
 * The import arrows of src/ point one way (README "Layout"): ui → lab → rewards → algorithms → model → kernels →
 * gpu, with tasks, tokenizer and util below them all. A file may import its own folder and any folder below it,
 * never one above: src/gpu knows nothing of models or algorithms, and nothing but the UI touches React stores.
 * One exception, by design: src/algorithms/math (float64 losses and estimators, importing nothing outside
 * itself) is the source of truth the loss kernels' CPU twins share, so kernels/ and reference/ may import it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(__dirname, "../../src");

/** Each top-level folder of src/ and its rank: a file may import ranks ≤ its own. */
const RANK: Record<string, number> = {
  util: 0,
  tokenizer: 0,
  shaders: 1,
  gpu: 1,
  reference: 2,
  kernels: 2,
  model: 3,
  tasks: 3,
  onnx: 4,
  algorithms: 5,
  rewards: 6,
  lab: 7,
  ui: 8,
  "main.tsx": 9,
};

/** Imports below-the-arrow folders may make upwards (the exception above), as a path prefix under src/. */
const SHARED_LEAVES = ["algorithms/math/", "model/config", "model/params"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(name) ? [p] : [];
  });
}

/**
 * Relative specifiers of a source file, in single or double quotes: `import … from "…"`, `export … from "…"`,
 * side-effect `import "…"` and dynamic `import("…")`.
 */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*(?:"(\.{1,2}\/[^"\n]+)"|'(\.{1,2}\/[^'\n]+)')/g)].map(
    (m) => m[1] ?? m[2],
  );
}

/** "src/gpu/x.ts imports src/model/y (model above gpu)" for every import of `file` (its `text`) that points up. */
function upwardImportsOf(file: string, text: string): string[] {
  const out: string[] = [];
  const from = relative(SRC, file).split("/")[0];
  for (const spec of relativeImports(text)) {
    const target = relative(SRC, resolve(dirname(file), spec));
    if (target.startsWith("..")) continue; // outside src/ (e.g. a test helper): not ours to rank here
    const to = target.split("/")[0].replace(/\?raw$/, "");
    if (RANK[to] === undefined || RANK[from] === undefined)
      out.push(`${relative(SRC, file)}: folder ${RANK[from] === undefined ? from : to} has no rank here`);
    else if (RANK[to] > RANK[from] && !SHARED_LEAVES.some((l) => target.startsWith(l)))
      out.push(`src/${relative(SRC, file)} imports src/${target} (${to} is above ${from})`);
  }
  return out;
}

/** Every upward import in src/. */
function upwardImports(): string[] {
  return files(SRC).flatMap((file) => upwardImportsOf(file, readFileSync(file, "utf8")));
}

describe("src/ layering", () => {
  it("no file imports a folder above its own", () => {
    expect(upwardImports()).toEqual([]);
  });

  it("src/algorithms/math imports nothing outside itself (it is shared below the arrows)", () => {
    const outside = files(join(SRC, "algorithms/math")).flatMap((f) =>
      relativeImports(readFileSync(f, "utf8")).filter((s) => !s.startsWith("./")),
    );
    expect(outside).toEqual([]);
  });

  it("finds an upward import when there is one, in every form of import", () => {
    const fake = [
      `import "../ui/lab_store";`,
      `import { useLab } from '../ui/lab_store';`,
      `import type { Lesson } from "../lab/presets/lesson";`,
      `export { run } from "../lab/presets/lesson";`,
      `export * from '../rewards/lexicon';`,
      `const w = import("../lab/worker");`,
      `import { shape } from "../model/config";`, // a shared leaf below the arrows
      `import { ctx } from "./context";`, // its own folder
      `import { writeFileSync } from "node:fs";`, // not relative
    ].join("\n");
    expect(upwardImportsOf(join(SRC, "gpu/fake.ts"), fake)).toEqual([
      "src/gpu/fake.ts imports src/ui/lab_store (ui is above gpu)",
      "src/gpu/fake.ts imports src/ui/lab_store (ui is above gpu)",
      "src/gpu/fake.ts imports src/lab/presets/lesson (lab is above gpu)",
      "src/gpu/fake.ts imports src/lab/presets/lesson (lab is above gpu)",
      "src/gpu/fake.ts imports src/rewards/lexicon (rewards is above gpu)",
      "src/gpu/fake.ts imports src/lab/worker (lab is above gpu)",
    ]);
    // From the top folder the same imports all point down or sideways.
    expect(upwardImportsOf(join(SRC, "ui/fake.ts"), fake)).toEqual([]);
  });
});
