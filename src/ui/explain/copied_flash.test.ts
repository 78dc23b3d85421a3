/** The copy button's "Copied" (copied_flash.ts): shown now, gone after 2 s, and never reset once cancelled. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { COPIED_MS, flashCopied } from "./copied_flash";

describe("flashCopied", () => {
  afterEach(() => vi.useRealTimers());

  it("shows Copied, then the button's label again after 2 s", () => {
    vi.useFakeTimers();
    const states: string[] = [];
    flashCopied((s: string) => states.push(s), "copied", "idle");
    expect(states).toEqual(["copied"]);
    vi.advanceTimersByTime(COPIED_MS - 1);
    expect(states).toEqual(["copied"]);
    vi.advanceTimersByTime(1);
    expect(states).toEqual(["copied", "idle"]);
    expect(COPIED_MS).toBe(2000);
  });

  it("sets nothing after its cancel (the button unmounted, or clicked again)", () => {
    vi.useFakeTimers();
    const states: string[] = [];
    const cancel = flashCopied((s: string) => states.push(s), "copied", "idle");
    cancel();
    vi.advanceTimersByTime(10 * COPIED_MS);
    expect(states).toEqual(["copied"]);
  });
});
