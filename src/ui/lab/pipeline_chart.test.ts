/**
 * A Pipeline chart draws at most ~MAX_ROWS rows of a long stage, keeping its held-out evaluations and its end;
 * a stage's progress line says its time left.
 */
import { describe, expect, it } from "vitest";
import { MAX_ROWS } from "./PipelineChart";
import { thinRows } from "./thin_rows";
import { timeLeft } from "./time_left";

describe("thinRows", () => {
  it("keeps every k-th row, the last and the sparse ones, in order; short stages whole", () => {
    const rows = Array.from({ length: 2401 }, (_, i) => ({
      step: i,
      loss: 1 / (i + 1),
      ...(i % 300 === 7 ? { heldOut: 0.5 } : {}),
    }));
    const out = thinRows(rows, MAX_ROWS, (r) => r.heldOut !== undefined);
    const steps = out.map((r) => r.step);
    expect(steps.length).toBeLessThanOrEqual(MAX_ROWS + 9);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.at(-1)).toBe(2400);
    for (const r of rows.filter((x) => x.heldOut !== undefined)) expect(steps).toContain(r.step);
    expect(thinRows(rows.slice(0, 50), MAX_ROWS, () => false)).toEqual(rows.slice(0, 50));
  });
});

describe("a stage's time left", () => {
  it("extrapolates its pace so far, from its second step, in s, min or h", () => {
    expect(timeLeft(1, 100, 5_000)).toBeNull(); // the first step also builds the kernels
    expect(timeLeft(100, 100, 5_000)).toBeNull();
    expect(timeLeft(10, 100, 5_000)).toBe("about 45 s left");
    expect(timeLeft(20, 300, 8_000)).toBe("about 1 min 52 s left");
    expect(timeLeft(10, 1500, 60_000)).toBe("about 2 h 29 min left");
  });
});
