/**
 * The shared float64 test vectors (../shared/test-vectors/losses.json next to the repo folder), computed
 * independently from ../shared/docs/algorithms.md. Tolerance: 1e-6 relative on float64 paths, 1e-4 on f32 GPU paths.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** One case: `doc` names the section of ../shared/docs/algorithms.md; `inputs`/`expected` as the spec names them. */
export interface VectorCase {
  name: string;
  doc: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON of many shapes; each test reads the fields it knows.
  inputs: Record<string, any>;
  // biome-ignore lint/suspicious/noExplicitAny: number, array or object depending on the case.
  expected: any;
}

/** Absolute path of losses.json: the `shared` folder sits next to the repo folder. */
export const VECTORS_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../shared/test-vectors/losses.json",
);

let cache: VectorCase[] | null = null;

/**
 * All cases of losses.json.
 * @throws Error naming the expected path when the file is missing or has no `cases` array.
 */
export function loadVectors(): VectorCase[] {
  if (cache) return cache;
  if (!existsSync(VECTORS_PATH))
    throw new Error(
      `test vectors not found at ${VECTORS_PATH}: the project's tests expect the shared folder ` +
        "(docs/, test-vectors/) next to the repository folder, at ../shared",
    );
  const json = JSON.parse(readFileSync(VECTORS_PATH, "utf8")) as { cases?: unknown };
  if (!Array.isArray(json.cases)) throw new Error(`${VECTORS_PATH} has no "cases" array`);
  cache = json.cases as VectorCase[];
  return cache;
}

/** The case called `name`. @throws Error listing the available names when there is none. */
export function vectorCase(name: string): VectorCase {
  const cases = loadVectors();
  const c = cases.find((x) => x.name === name);
  if (!c)
    throw new Error(
      `no test vector "${name}" in ${VECTORS_PATH}; have ${cases.map((x) => x.name).join(", ")}`,
    );
  return c;
}
