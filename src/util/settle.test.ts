import { describe, expect, it, vi } from "vitest";
import { landsWithin, withTimeout } from "./settle";

describe("landsWithin", () => {
  it("is true when the promise resolves in time, false after the wait, and passes a rejection on", async () => {
    vi.useFakeTimers();
    try {
      const quick = landsWithin(Promise.resolve(1), 1000);
      await expect(quick).resolves.toBe(true);
      let done!: () => void;
      const slow = landsWithin(new Promise<void>((r) => (done = r)), 1000);
      await vi.advanceTimersByTimeAsync(999);
      let settled = false;
      void slow.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(slow).resolves.toBe(false);
      done();
      await expect(landsWithin(Promise.reject(new Error("no")), 1000)).rejects.toThrow("no");
      // Infinity waits however long it takes.
      const forever = landsWithin(new Promise<void>((r) => setTimeout(r, 1e9)), Number.POSITIVE_INFINITY);
      await vi.advanceTimersByTimeAsync(1e9);
      await expect(forever).resolves.toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("withTimeout", () => {
  it("passes the value or the error on, or rejects naming what did not answer within the time", async () => {
    vi.useFakeTimers();
    try {
      await expect(withTimeout(Promise.resolve(7), 1000, "x")).resolves.toBe(7);
      await expect(withTimeout(Promise.reject(new Error("denied")), 1000, "x")).rejects.toThrow("denied");
      const hung = withTimeout(new Promise(() => {}), 30_000, "WebGPU did not answer");
      const caught = hung.catch((e: Error) => e.message);
      await vi.advanceTimersByTimeAsync(29_999);
      let settled = false;
      void caught.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(caught).resolves.toBe("WebGPU did not answer within 30 s");
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
