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

  it("two runs trained in step draw the same steps (a chart's rows stay about max)", () => {
    const a = new PointColumns();
    const b = new PointColumns();
    for (let s = 1; s <= 5000; s++) {
      a.push(s, s, Math.sin(s), 0);
      b.push(s, s, s % 17 === 0 ? 9 : Math.cos(s), 0);
    }
    expect(drawnPoints(a, 0, 200).map((p) => p.x)).toEqual(drawnPoints(b, 0, 200).map((p) => p.x));
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
