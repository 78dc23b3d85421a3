/**
 * The start-up kernel pick and its cache (src/kernels/autotune.ts, src/lab/kernel_choice.ts), on the test adapter:
 * a first start times both matmul variants and saves the pick; a later start in the same process reuses it; a new
 * process (memo cleared) reads the saved pick without timing anything; a saved value that is not a valid pick for
 * this shape, or a store that fails, leads to timing again. The IndexedDB store round-trips on fake-indexeddb.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import type { AdapterReport } from "../../src/gpu/device";
import {
  AUTOTUNE_VERSION,
  type AutotuneResult,
  type AutotuneStore,
  autotune,
  autotuneKey,
  clearAutotuneMemo,
} from "../../src/kernels/autotune";
import { MATMUL_VARIANTS, matmulVariant, setMatmulVariant } from "../../src/kernels/matmul";
import { kernelChoiceStore, labAutotuneShape } from "../../src/lab/kernel_choice";
import { testGpu } from "../helpers/gpu";

/** Small enough for SwiftShader; M and N do not divide the 16×16 tile. */
const SHAPE = { M: 40, N: 24, K: 8 };

/** A Map-backed store that counts reads and writes. */
function mapStore(init?: [string, unknown][]) {
  const m = new Map<string, unknown>(init);
  const counts = { get: 0, set: 0 };
  const store: AutotuneStore = {
    get: async (k) => {
      counts.get++;
      return m.get(k);
    },
    set: async (k, v) => {
      counts.set++;
      m.set(k, structuredClone(v));
    },
  };
  return { m, counts, store };
}

afterEach(() => clearAutotuneMemo());

describe("autotune cache", () => {
  it("times both variants once, saves the pick, and reuses it from memory and from the store", async () => {
    const ctx = await testGpu();
    const key = autotuneKey(ctx.adapter, SHAPE);
    const { m, counts, store } = mapStore();
    const first = await autotune(ctx, SHAPE, store);
    console.log(`picked ${first.matmul.variant}: ${JSON.stringify(first.matmul.ms)} ms per ${key}`);
    expect(first.from).toBe("timed");
    for (const v of MATMUL_VARIANTS) expect(first.matmul.ms[v]).toBeGreaterThan(0);
    const fastest = MATMUL_VARIANTS.reduce((a, b) => (first.matmul.ms[a] <= first.matmul.ms[b] ? a : b));
    expect(first.matmul.variant).toBe(fastest);
    expect(matmulVariant(ctx)).toBe(fastest);
    expect(counts).toEqual({ get: 1, set: 1 });
    expect((m.get(key) as AutotuneResult).matmul).toEqual(first.matmul);

    const again = await autotune(ctx, SHAPE, store);
    expect(again.from).toBe("memory");
    expect(again.matmul).toEqual(first.matmul);
    expect(counts).toEqual({ get: 1, set: 1 });

    // A new page: nothing in memory; the saved pick is used as it is, even one the timing would not make now.
    clearAutotuneMemo();
    const other = MATMUL_VARIANTS.find((v) => v !== fastest)!;
    const planted: AutotuneResult = {
      matmul: { variant: other, ms: { tiled: 7, regtile: 9 }, shape: { ...SHAPE } },
      from: "timed",
    };
    m.set(key, planted);
    setMatmulVariant(ctx, fastest);
    const saved = await autotune(ctx, SHAPE, store);
    expect(saved.from).toBe("saved");
    expect(saved.matmul).toEqual(planted.matmul); // the planted times: nothing was timed
    expect(matmulVariant(ctx)).toBe(other);
    expect(counts).toEqual({ get: 2, set: 1 });
  });

  it("times again when the saved value is not a valid pick for this shape", async () => {
    const ctx = await testGpu();
    const key = autotuneKey(ctx.adapter, SHAPE);
    const bad: unknown[] = [
      null,
      "tiled",
      { matmul: { variant: "simd", ms: { tiled: 1, regtile: 2 }, shape: SHAPE } },
      { matmul: { variant: "tiled", ms: { tiled: 1, regtile: 2 }, shape: { ...SHAPE, K: 9 } } },
      { matmul: { variant: "tiled", ms: { tiled: Number.NaN, regtile: 2 }, shape: SHAPE } },
      { matmul: { variant: "tiled", ms: { tiled: 1 }, shape: SHAPE } },
    ];
    for (const value of bad) {
      clearAutotuneMemo();
      const { m, store } = mapStore([[key, value]]);
      const r = await autotune(ctx, SHAPE, store);
      expect(r.from, JSON.stringify(value)).toBe("timed");
      expect((m.get(key) as AutotuneResult).matmul).toEqual(r.matmul);
    }
  });

  it("a store that throws is read as empty and written past", async () => {
    const ctx = await testGpu();
    const broken: AutotuneStore = {
      get: () => Promise.reject(new Error("QuotaExceededError")),
      set: () => Promise.reject(new Error("QuotaExceededError")),
    };
    const r = await autotune(ctx, SHAPE, broken);
    expect(r.from).toBe("timed");
    expect(matmulVariant(ctx)).toBe(r.matmul.variant);
  });

  it("keys name the version, the adapter and the shape", () => {
    const a = {
      vendor: "nvidia",
      architecture: "hopper",
      device: "",
      description: "NVIDIA H200",
      name: "nvidia hopper",
    } as AdapterReport;
    const k = autotuneKey(a, SHAPE);
    expect(k.startsWith(`v${AUTOTUNE_VERSION}|`)).toBe(true);
    expect(autotuneKey({ ...a, description: "NVIDIA H100" }, SHAPE)).not.toBe(k);
    expect(autotuneKey(a, { ...SHAPE, N: 25 })).not.toBe(k);
    expect(labAutotuneShape({ nEmbd: 128 })).toEqual({ M: 256, N: 384, K: 128 });
    expect(labAutotuneShape({ nEmbd: 32 })).toEqual({ M: 256, N: 96, K: 32 });
  });

  it("the lab's IndexedDB store keeps a pick across store instances", async () => {
    const store = kernelChoiceStore();
    if (!store) throw new Error("fake-indexeddb should provide indexedDB");
    const pick: AutotuneResult = {
      matmul: { variant: "regtile", ms: { tiled: 3.5, regtile: 1.25 }, shape: { ...SHAPE } },
      from: "timed",
    };
    expect(await store.get("k")).toBeUndefined();
    await store.set("k", pick);
    expect(await kernelChoiceStore()?.get("k")).toEqual(pick);
  });
});
