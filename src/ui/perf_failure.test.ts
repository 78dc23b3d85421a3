/**
 * The Performance card's line when the matmul timing fails: a lost device (the page's own, which runs only the
 * System panel's checks) reads in words, with what to do, not as "GPU device lost (destroyed): Device was destroyed."
 */
import { describe, expect, it } from "vitest";
import { GpuDeviceLostError } from "../gpu/errors";
import { perfFailure } from "./perf_failure";

describe("the throughput's failure", () => {
  it("a lost device: what happened and what Run again does, no raw text", () => {
    const lost = new GpuDeviceLostError("destroyed", "Device was destroyed.");
    const text = perfFailure(lost, false);
    expect(text).toBe("the checks' GPU device was lost; Run again measures it on a new one.");
    expect(text).not.toMatch(/GPU device lost \(|Device was destroyed/);
    // Another error thrown after the loss (a buffer of the destroyed device) reads the same.
    expect(perfFailure(new Error("Buffer is destroyed"), true)).toBe(text);
  });

  it("any other failure keeps its text", () => {
    expect(perfFailure(new Error("timestamp query failed"), false)).toBe("timestamp query failed");
  });
});
