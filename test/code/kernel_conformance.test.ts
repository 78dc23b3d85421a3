/**
 * The kernel rules of docs/kernels.md, enforced: every src/shaders/*.wgsl (not lib/) names an existing CPU twin
 * in its header, is imported by a wrapper, whose test exists, imports it and runs on kernelGpu(); every kernel
 * name belongs to one source; each wrapper's params() calls fill its shader's `struct Params`; and every shader
 * compiles on this adapter through the pipeline cache's check path (each width family at widths 1 and 256; with
 * its override constants at their defaults and with every bool override flipped). An orphan shader (no twin, no
 * wrapper, no test, not compiling) fails here.
 */
import { describe, expect, it, vi } from "vitest";
import type { Constants, Kernel, KernelSpec } from "../../src/gpu/pipeline";
import { linkWgsl } from "../../src/kernels/wgsl_lib";
import { testGpu } from "../helpers/gpu";
import {
  cpuTwinOf,
  importersOf,
  imports,
  isFile,
  paramsCallFields,
  ROOT,
  read,
  shaderFiles,
  shaderHeader,
  structParamsFields,
  testOf,
} from "./kernel_sources";

/** Every kernel the wrappers define (plain ones at import, width families when called), and every family. */
const seen = vi.hoisted(() => ({ kernels: [] as Kernel[], families: [] as ((w: number) => Kernel)[] }));

vi.mock("../../src/gpu/pipeline", async (importOriginal) => {
  const m = await importOriginal<typeof import("../../src/gpu/pipeline")>();
  const defineKernel = (spec: KernelSpec): Kernel => {
    const k = m.defineKernel(spec);
    seen.kernels.push(k);
    return k;
  };
  return { ...m, defineKernel };
});

vi.mock("../../src/kernels/variants", async (importOriginal) => {
  const m = await importOriginal<typeof import("../../src/kernels/variants")>();
  const widthFamily: typeof m.widthFamily = (...args) => {
    const f = m.widthFamily(...args);
    seen.families.push(f);
    return f;
  };
  return { ...m, widthFamily };
});

/**
 * Wrappers whose params() calls this file cannot match to `struct Params` field counts, with the reason. Each
 * must still fill its struct; its own test checks the values.
 */
const PARAMS_EXCEPTIONS: Readonly<Record<string, string>> = {};

const SHADERS = shaderFiles();

/** shader → the source files importing it. */
const WRAPPERS = new Map(SHADERS.map((s) => [s, importersOf(s)]));

describe("kernel conformance (docs/kernels.md)", () => {
  it("finds the shaders", () => {
    expect(SHADERS.length).toBeGreaterThan(30);
  });

  it.each(SHADERS)("%s names an existing CPU twin in its header", (shader) => {
    const twin = cpuTwinOf(shaderHeader(read(shader)));
    expect(twin, `${shader}: no "// CPU twin: src/reference/….ts" line in its header`).not.toBeNull();
    expect(isFile(twin as string), `${shader}: its CPU twin ${twin} does not exist`).toBe(true);
  });

  it.each(SHADERS)("%s is used by a wrapper whose test exists and imports it", (shader) => {
    const wrappers = WRAPPERS.get(shader) ?? [];
    expect(wrappers, `${shader}: no file under src/ imports it with ?raw`).not.toEqual([]);
    for (const w of wrappers) {
      const test = testOf(w);
      expect(isFile(test), `${w}: no test ${test} (name another in its header: "Test: test/….test.ts")`).toBe(
        true,
      );
      expect(imports(read(test), w), `${test} does not import ${w}`).toBe(true);
      // kernelGpu() (test/helpers/gpu.ts) fills outputs with NaN, so an element the kernel never writes fails.
      expect(
        /\bkernelGpu\(/.test(read(test)),
        `${test} does not run on kernelGpu() (its outputs would start at 0: a never-written element could pass)`,
      ).toBe(true);
    }
  });

  it.each(SHADERS)("%s: each params() of its wrappers fills its struct Params", (shader) => {
    const fields = structParamsFields(read(shader));
    if (fields === null) return; // no uniform parameters
    for (const w of WRAPPERS.get(shader) ?? []) {
      if (PARAMS_EXCEPTIONS[w]) continue;
      const calls = paramsCallFields(read(w));
      expect(
        calls,
        `${w}: a params() call this test cannot count; list it in PARAMS_EXCEPTIONS`,
      ).not.toContain(null);
      // A wrapper of several shaders: every shader's struct is filled by one of its calls.
      expect(calls, `${w}: no params() call has the ${fields} fields of ${shader}'s struct Params`).toContain(
        fields,
      );
    }
  });

  it("each wrapper's params() calls all match one of its shaders' struct Params", () => {
    const byWrapper = new Map<string, Set<number | null>>();
    for (const [shader, wrappers] of WRAPPERS)
      for (const w of wrappers) {
        const set = byWrapper.get(w) ?? new Set();
        set.add(structParamsFields(read(shader)));
        byWrapper.set(w, set);
      }
    const bad: string[] = [];
    for (const [w, structs] of byWrapper) {
      if (PARAMS_EXCEPTIONS[w]) continue;
      for (const n of paramsCallFields(read(w)))
        if (!structs.has(n))
          bad.push(`${w}: a params() call of ${n} fields; its structs have ${[...structs]}`);
    }
    expect(bad, bad.join("\n")).toEqual([]);
  });

  it("sample.wgsl's own copy of log1p_f32 is the one in lib/reduce_vec2.wgsl (the copies must not drift)", () => {
    const log1p = (path: string) =>
      read(path).match(/^fn log1p_f32\(r: f32\) -> f32 \{\n[\s\S]*?\n\}$/m)?.[0];
    const shared = log1p("src/shaders/lib/reduce_vec2.wgsl");
    expect(shared, "lib/reduce_vec2.wgsl: no fn log1p_f32(r: f32) -> f32").toBeDefined();
    expect(
      log1p("src/shaders/sample.wgsl"),
      "sample.wgsl's log1p_f32 differs from lib/reduce_vec2.wgsl's",
    ).toBe(shared);
  });

  it("every shader compiles on this adapter, and each kernel name has one source", async () => {
    for (const w of new Set([...WRAPPERS.values()].flat())) await import(/* @vite-ignore */ `${ROOT}/${w}`);
    for (const f of seen.families) for (const width of [1, 256]) f(width);
    const sources = new Map<string, Set<string>>();
    for (const k of seen.kernels) sources.set(k.name, (sources.get(k.name) ?? new Set()).add(k.source));
    const failures = [...sources]
      .filter(([, s]) => s.size > 1)
      .map(([name, s]) => `kernel name "${name}" is defined with ${s.size} sources: rename the copy`);
    const ctx = await testGpu();
    for (const shader of SHADERS) {
      const raw = read(shader);
      const linked = linkWgsl(shader, raw);
      const kernels = seen.kernels.filter((k) => k.source === raw || k.source === linked);
      if (!kernels.length) failures.push(`${shader}: no kernel defined with its source`);
      for (const k of kernels)
        for (const constants of overrideSets(raw)) {
          await ctx.pipelines.check(k, constants).catch((e: Error) => {
            failures.push(`${shader} as ${k.name} ${JSON.stringify(constants)}: ${e.message}`);
          });
        }
    }
    expect(failures, failures.join("\n")).toEqual([]);
  });
});

/** The override sets a shader is compiled with: its defaults, and (if it has bool overrides) each of them flipped. */
function overrideSets(source: string): Constants[] {
  const flipped: Record<string, boolean> = {};
  for (const m of source.matchAll(/^override (\w+): bool = (true|false);/gm))
    flipped[m[1]] = m[2] === "false";
  return Object.keys(flipped).length ? [{}, flipped] : [{}];
}
