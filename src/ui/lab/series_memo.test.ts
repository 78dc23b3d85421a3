/** A line's remembered points (series_memo.ts): typed columns that grow, and the evenly thinned points a chart draws. */
import { describe, expect, it } from "vitest";
import { drawnIndices, drawnPoints, PointColumns, pointsFrom } from "./series_memo";

describe("drawnIndices", () => {
  it("keeps every point up to max; past it, max of them, the ends kept, increasing", () => {
    expect(drawnIndices(0, 3, 10)).toEqual([0, 1, 2]);
    expect(drawnIndices(1, 4, 10)).toEqual([1, 2, 3]);
    expect(drawnIndices(0, 0, 10)).toEqual([]);
    expect(drawnIndices(0, 1001, 11)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(drawnIndices(0, 1000, 1)).toEqual([0]);
    for (const [start, end, max] of [
      [0, 201, 200],
      [3, 6381, 200],
      [7, 999, 2],
    ]) {
      const got = drawnIndices(start, end, max);
      expect(got).toHaveLength(max);
      expect(got[0]).toBe(start);
      expect(got.at(-1)).toBe(end - 1);
      for (let i = 1; i < got.length; i++) expect(got[i]).toBeGreaterThan(got[i - 1]);
    }
  });

  it("keeps a line's least and greatest value past max: a lone spike stays drawn", () => {
    // A reviewer's 500-step run with a KL of 50 at step 250 (4 elsewhere): the chart, its y-range, the hover card
    // and the table's "Highest" (8.3 at step 500) all missed it.
    const c = new PointColumns();
    for (let s = 1; s <= 500; s++) c.push(s, s, s === 250 ? 50 : s === 333 ? -7 : 4 + s / 100, 0);
    const drawn = drawnPoints(c, 0, 200);
    expect(drawn.find((p) => p.step === 250)?.raw).toBe(50);
    expect(drawn.find((p) => p.step === 333)?.raw).toBe(-7);
    expect(drawn.length).toBeLessThanOrEqual(202);
    for (let i = 1; i < drawn.length; i++) expect(drawn[i].step).toBeGreaterThan(drawn[i - 1].step);
    // From a fork's first point on: the extremes of that stretch only.
    expect(drawnIndices(300, 500, 50, c.raw)).toContain(332);
    expect(drawnIndices(300, 500, 50, c.raw)).not.toContain(249);
  });

  it("the extremes kept as points come pick what a scan of the drawn stretch picks", () => {
    const c = new PointColumns();
    for (let s = 1; s <= 900; s++)
      c.push(s, s, Math.round(100 * Math.sin(s * 0.37) * Math.cos(s * 0.011)), 0);
    for (const start of [0, 1, 150, 640])
      expect(drawnPoints(c, start, 120).map((p) => p.step)).toEqual(
        drawnIndices(start, c.length, 120, c.raw).map((i) => c.step[i]),
      );
  });

  it("two runs trained in step draw the same steps (a chart's rows stay about max)", () => {
    const a = new PointColumns();
    const b = new PointColumns();
    for (let s = 1; s <= 5000; s++) {
      a.push(s, s, Math.sin(s), 0);
      b.push(s, s, s % 17 === 0 ? 9 : Math.cos(s), 0);
    }
    // The strided steps are shared; each line adds at most its least and greatest.
    const xa = drawnPoints(a, 0, 200).map((p) => p.x);
    const xb = new Set(drawnPoints(b, 0, 200).map((p) => p.x));
    expect(xa.filter((x) => !xb.has(x)).length).toBeLessThanOrEqual(2);
    expect(new Set([...xa, ...xb]).size).toBeLessThanOrEqual(204);
  });
});

describe("PointColumns", () => {
  it("grows past its first capacity and finds steps", () => {
    const c = new PointColumns();
    for (let i = 0; i < 300; i++) c.push(2 * i + 1, i / 10, i, -i);
    expect(c.length).toBe(300);
    expect(c.at(299)).toEqual({ step: 599, x: 29.9, raw: 299, smooth: -299, sx: 29.9 });
    // With the smoothed line's x (the KL axes): its own column, grown with the others.
    const k = new PointColumns(true);
    for (let i = 0; i < 300; i++) k.push(i + 1, i, i, i, i / 2);
    expect(k.at(299)).toEqual({ step: 300, x: 299, raw: 299, smooth: 299, sx: 149.5 });
    expect(c.firstAtOrAfter(0)).toBe(0);
    expect(c.firstAtOrAfter(4)).toBe(2);
    expect(c.firstAtOrAfter(5)).toBe(2);
    expect(c.firstAtOrAfter(10_000)).toBe(300);
    expect(pointsFrom(c, 298).map((p) => p.step)).toEqual([597, 599]);
  });
});
