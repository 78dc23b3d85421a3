import { describe, expect, it } from "vitest";
import { RUN_COLOURS } from "../../lab/protocol";
import type { DrawnSeries } from "./chart_types";
import { lineEnds } from "./line_ends";
import { resetColours, runLooks } from "./palette";
import { RUN_SHAPES, runShape, shapePath } from "./run_shape";

/** The points of a path's outline (its numbers in pairs; the circle's arc flags and radii excepted). */
function outline(d: string): [number, number][] {
  const n = (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < n.length; i += 2) out.push([n[i], n[i + 1]]);
  return out;
}

describe("a run's shape", () => {
  it("one shape per palette colour, in slot order, wrapping as the colours do", () => {
    expect(RUN_SHAPES).toHaveLength(RUN_COLOURS);
    expect(new Set(RUN_SHAPES).size).toBe(RUN_COLOURS);
    expect(runShape(0)).toBe("circle");
    expect(runShape(RUN_COLOURS + 2)).toBe(runShape(2));
    expect(runShape(-1)).toBe(runShape(RUN_COLOURS - 1));
  });

  it("each run's look carries its slot's shape, kept as its colour is", () => {
    resetColours();
    const looks = runLooks([{ id: "a" }, { id: "b" }, { id: "c", colour: 4 }]);
    expect(looks.a.shape).toBe("circle");
    expect(looks.b.shape).toBe("square");
    expect(looks.c.shape).toBe(runShape(4));
  });

  it("every path is closed, finite and within 1.25 radii of the centre", () => {
    for (const s of RUN_SHAPES) {
      const d = shapePath(s, 50, 40, 5);
      expect(d.startsWith("M")).toBe(true);
      expect(d.endsWith("Z")).toBe(true);
      if (s === "circle") {
        expect(d).toBe("M45,40a5,5 0 1,0 10,0a5,5 0 1,0 -10,0Z");
        continue;
      }
      const pts = outline(d);
      expect(pts.length).toBeGreaterThanOrEqual(3);
      for (const [x, y] of pts) expect(Math.hypot(x - 50, y - 40)).toBeLessThanOrEqual(5 * 1.25);
    }
    // Two shapes never draw the same outline.
    expect(new Set(RUN_SHAPES.map((s) => shapePath(s, 0, 0, 5))).size).toBe(RUN_SHAPES.length);
  });
});

describe("the ends of a chart's lines", () => {
  const series = (id: string, shape: DrawnSeries["line"]["shape"], pts: [number, number, number][]) =>
    ({
      id,
      total: pts.length,
      points: pts.map(([x, raw, smooth]) => ({ step: x, x, raw, smooth, sx: x })),
      drawn: pts.map(([x, raw, smooth]) => ({ x, raw, smooth })),
      line: {
        runId: id,
        runLabel: id,
        colour: `var(--${id})`,
        metric: "m",
        history: [],
        shape,
        dotted: id === "d",
      },
    }) as DrawnSeries;

  it("each shaped line's latest point, at the value drawn (smoothed or raw); none without a shape or a point", () => {
    const s = [
      series("a", "circle", [
        [0, 1, 1],
        [1, 3, 2],
      ]),
      series("b", undefined, [[0, 1, 1]]),
      series("c", "square", []),
      series("d", "triangle", [[5, Number.NaN, 0.5]]),
    ];
    expect(lineEnds(s, true)).toEqual([
      { key: "a", runId: "a", x: 1, y: 2, colour: "var(--a)", shape: "circle", hollow: false },
      { key: "d", runId: "d", x: 5, y: 0.5, colour: "var(--d)", shape: "triangle", hollow: true },
    ]);
    // On a KL axis the line, joined in step order, ends at its latest step (KL 0.3), not at its largest KL.
    const kl = series("k", "diamond", [
      [0.2, 1, 1],
      [0.5, 2, 2],
      [0.3, 3, 3],
    ]);
    expect(lineEnds([kl], false)).toEqual([
      { key: "k", runId: "k", x: 0.3, y: 3, colour: "var(--k)", shape: "diamond", hollow: false },
    ]);
    // A smoothed line drawn at the smoothed KL ends there.
    const smoothed = { ...kl, drawn: [...kl.drawn.slice(0, 2), { x: 0.41, raw: 3, smooth: 2.5 }] };
    expect(lineEnds([smoothed], true)).toEqual([
      { key: "k", runId: "k", x: 0.41, y: 2.5, colour: "var(--k)", shape: "diamond", hollow: false },
    ]);
    // Raw values drawn: the NaN end is not drawn.
    expect(lineEnds(s, false)).toEqual([
      { key: "a", runId: "a", x: 1, y: 3, colour: "var(--a)", shape: "circle", hollow: false },
    ]);
  });
});
