/** What the Inspect panel says while paused with nothing to show: finishing, after a reload, or before a step. */
import { describe, expect, it } from "vitest";
import { emptyHint } from "./empty_hint";

describe("the inspector with nothing to show", () => {
  it("says why", () => {
    expect(emptyHint(null)).toMatch(/^Take a step/);
    expect(emptyHint({ a: { step: 0, status: "ready" } })).toMatch(/^Take a step/);
    expect(emptyHint({ a: { step: 3, status: "finishing" }, b: { step: 3, status: "paused" } })).toMatch(
      /A step is on the device .*a run's view appears here when its step lands/,
    );
    expect(emptyHint({ a: { step: 2, status: "paused" } })).toMatch(/not kept across a reload/);
    // A run imported for comparison (curves only) is no reason.
    expect(
      emptyHint({ a: { step: 0, status: "ready" }, c: { step: 9, status: "paused", comparison: true } }),
    ).toMatch(/^Take a step/);
  });
});
