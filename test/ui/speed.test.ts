import { afterEach, describe, expect, it, vi } from "vitest";

const fresh = async () => {
  vi.resetModules();
  return (await import("../../src/ui/lab_store")).useLab.getState();
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("the speed cap", () => {
  it("survives a reload (this browser's localStorage); a bad or missing value is no cap", async () => {
    const kept = new Map<string, string>();
    vi.stubGlobal("localStorage", {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => kept.set(k, String(v)),
    });
    expect((await fresh()).speed).toBe(0);
    (await fresh()).setSpeed(2);
    expect((await fresh()).speed).toBe(2);
    kept.set("rlhf-playground.speed", "fast");
    expect((await fresh()).speed).toBe(0);
    kept.set("rlhf-playground.speed", "-1");
    expect((await fresh()).speed).toBe(0);
  });

  it("works without storage (a blocked origin throws): no cap, no error", async () => {
    vi.stubGlobal("localStorage", {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
    });
    const s = await fresh();
    expect(s.speed).toBe(0);
    s.setSpeed(4);
    expect((await import("../../src/ui/lab_store")).useLab.getState().speed).toBe(4);
  });
});
