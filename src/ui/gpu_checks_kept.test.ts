import { describe, expect, it } from "vitest";
import type { AdapterReport } from "../gpu/device";
import type { SelfTestResult } from "../kernels/selftest";
import type { MatmulThroughput } from "../kernels/throughput";
import { checksKey, forgetChecks, KEPT_FOR_MS, keepChecks, keptChecks } from "./gpu_checks_kept";

/** A Storage over a Map; `broken` makes every call throw (storage blocked or full). */
function memoryStorage(broken = false): Storage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  const guard = () => {
    if (broken) throw new DOMException("blocked", "SecurityError");
  };
  return {
    map,
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => {
      guard();
      return map.get(k) ?? null;
    },
    setItem: (k: string, v: string) => {
      guard();
      map.set(k, v);
    },
    removeItem: (k: string) => {
      guard();
      map.delete(k);
    },
  };
}

const adapter: AdapterReport = {
  vendor: "google",
  architecture: "swiftshader",
  device: "",
  description: "SwiftShader Device (Subzero)",
  name: "google swiftshader",
  isSoftware: true,
  features: ["shader-f16", "timestamp-query"],
  limits: {},
  host: "browser",
};
const row = (ok = true): SelfTestResult => ({
  kernel: "matmul (A·B) · tiled",
  shape: "M=33 N=17 K=45",
  n: 561,
  maxAbsError: 2.4e-7,
  worstIndex: 12,
  tolerance: { atol: 1e-5, rtol: 1e-4 },
  ok,
  gpuMs: 0.8,
});
const perf: MatmulThroughput = {
  gflops: 0.31,
  n: 256,
  reps: 2,
  ms: 216,
  samples: 3,
  source: "timestamp-query",
  variant: "regtile",
};
const BUILD = "https://lab.example/assets/index-Bx8f2a.js";
const UA = "Mozilla/5.0 (X11; Linux x86_64) Chrome/141.0.0.0";
const NOW = 1_780_000_000_000;

describe("GPU checks kept in this browser", () => {
  it("come back for the same build, browser and adapter, until a week has passed", () => {
    const s = memoryStorage();
    const key = checksKey(BUILD, UA, adapter, true);
    keepChecks(s, key, { at: NOW, results: [row(), row()], perf });
    expect(keptChecks(s, key, NOW + 1000)).toEqual({ at: NOW, results: [row(), row()], perf });
    expect(keptChecks(s, key, NOW + KEPT_FOR_MS - 1)).not.toBeNull();
    expect(keptChecks(s, key, NOW + KEPT_FOR_MS)).toBeNull();
    // A clock set back far (the entry claims to come from the future) is not trusted either.
    expect(keptChecks(s, key, NOW - 3_600_000)).toBeNull();
  });

  it("run again on another build, browser, adapter or timer", () => {
    const s = memoryStorage();
    keepChecks(s, checksKey(BUILD, UA, adapter, true), { at: NOW, results: [row()], perf });
    const others = [
      checksKey("https://lab.example/assets/index-Qq91zz.js", UA, adapter, true),
      checksKey(BUILD, UA.replace("141", "142"), adapter, true),
      checksKey(BUILD, UA, { ...adapter, vendor: "nvidia", architecture: "ampere", description: "" }, true),
      checksKey(BUILD, UA, { ...adapter, features: ["timestamp-query"] }, true),
      checksKey(BUILD, UA, adapter, false),
    ];
    for (const k of others) expect(keptChecks(s, k, NOW + 1000), String(k)).toBeNull();
    // The adapter's display name and limits are not what the kernels ran on: they do not count.
    expect(
      keptChecks(s, checksKey(BUILD, UA, { ...adapter, name: "x", limits: { a: 1 } }, true), NOW),
    ).not.toBeNull();
  });

  it("a failed check is never kept, and forgets what was", () => {
    const s = memoryStorage();
    const key = checksKey(BUILD, UA, adapter, true);
    keepChecks(s, key, { at: NOW, results: [row()], perf });
    keepChecks(s, key, { at: NOW + 5, results: [row(), row(false)], perf });
    expect(s.map.size).toBe(0);
    expect(keptChecks(s, key, NOW + 10)).toBeNull();
    keepChecks(s, key, { at: NOW, results: [], perf });
    expect(s.map.size).toBe(0);
    keepChecks(s, key, { at: NOW, results: [row()], perf });
    forgetChecks(s);
    expect(s.map.size).toBe(0);
  });

  it("nothing is kept in development (no build id)", () => {
    const s = memoryStorage();
    expect(checksKey(null, UA, adapter, true)).toBeNull();
    keepChecks(s, null, { at: NOW, results: [row()], perf });
    expect(s.map.size).toBe(0);
    expect(keptChecks(s, null, NOW)).toBeNull();
  });

  it("a damaged or hand-edited entry, or storage that throws, only means running them again", () => {
    const s = memoryStorage();
    const key = checksKey(BUILD, UA, adapter, true);
    const good = { key, at: NOW, results: [row()], perf };
    const bad: unknown[] = [
      "{",
      "null",
      "[]",
      JSON.stringify({ ...good, at: "yesterday" }),
      JSON.stringify({ ...good, results: [] }),
      JSON.stringify({ ...good, results: [{ ...row(), ok: false }] }),
      JSON.stringify({ ...good, results: [{ ...row(), maxAbsError: null }] }),
      JSON.stringify({ ...good, results: [{ ...row(), tolerance: null }] }),
      JSON.stringify({ ...good, perf: null }),
      JSON.stringify({ ...good, perf: { ...perf, gflops: 0 } }),
      JSON.stringify({ ...good, perf: { ...perf, variant: 3 } }),
    ];
    for (const v of bad) {
      s.map.set("rlhf-playground.gpu-checks", v as string);
      expect(keptChecks(s, key, NOW + 1), String(v)).toBeNull();
    }
    s.map.set("rlhf-playground.gpu-checks", JSON.stringify(good));
    expect(keptChecks(s, key, NOW + 1)).not.toBeNull();
    const blocked = memoryStorage(true);
    expect(keptChecks(blocked, key, NOW)).toBeNull();
    expect(() => keepChecks(blocked, key, { at: NOW, results: [row()], perf })).not.toThrow();
    expect(() => forgetChecks(blocked)).not.toThrow();
    expect(keptChecks(undefined, key, NOW)).toBeNull();
  });
});
