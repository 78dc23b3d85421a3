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

/** `from "…"` and `import("…")` specifiers of a source file that are relative paths. */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\()\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]);
}

/** "src/gpu/x.ts imports src/model/y (model above gpu)" for every import that points up. */
function upwardImports(): string[] {
  const out: string[] = [];
  for (const file of files(SRC)) {
    const from = relative(SRC, file).split("/")[0];
    for (const spec of relativeImports(readFileSync(file, "utf8"))) {
      const target = relative(SRC, resolve(dirname(file), spec));
      if (target.startsWith("..")) continue; // outside src/ (e.g. a test helper): not ours to rank here
      const to = target.split("/")[0].replace(/\?raw$/, "");
      if (RANK[to] === undefined || RANK[from] === undefined)
        out.push(`${relative(SRC, file)}: folder ${RANK[from] === undefined ? from : to} has no rank here`);
      else if (RANK[to] > RANK[from] && !SHARED_LEAVES.some((l) => target.startsWith(l)))
        out.push(`src/${relative(SRC, file)} imports src/${target} (${to} is above ${from})`);
    }
  }
  return out;
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

  it("finds an upward import when there is one", () => {
    const fake = `import { useLab } from "../ui/lab_store";\nconst w = import("../lab/worker");`;
    expect(relativeImports(fake)).toEqual(["../ui/lab_store", "../lab/worker"]);
  });
});
