/**
 * A run's shape: a second mark of its identity beside its colour, for a viewer who cannot tell two palette
 * colours apart (under protanopia or tritanopia some Okabe–Ito pairs come close; a washed-out projector; the
 * browser's forced colours, which paint every line alike). The legend swatches take the shape, and each chart
 * draws it at the end of the run's lines (the latest point), so a line is matched to its run by shape alone.
 * One shape per palette slot (./palette.ts), so a run keeps its shape as it keeps its colour.
 */

/** The shapes, by palette slot (wrapping as the colours do). */
export const RUN_SHAPES = [
  "circle",
  "square",
  "triangle",
  "diamond",
  "triangle-down",
  "plus",
  "cross",
] as const;

export type RunShape = (typeof RUN_SHAPES)[number];

/** The shape of palette slot `slot` (any integer; wraps like the colours). */
export function runShape(slot: number): RunShape {
  const n = RUN_SHAPES.length;
  return RUN_SHAPES[((slot % n) + n) % n];
}

/**
 * The SVG path of `shape` centred on (cx, cy), of about radius `r` (px; corners reach 1.25 r, so that the
 * shapes look alike in size): closed outlines; for "plus" and "cross" a 12-sided outline of the bars (width r·0.7), so every shape fills and
 * strokes alike.
 */
export function shapePath(shape: RunShape, cx: number, cy: number, r: number): string {
  const pts = (xy: readonly (readonly [number, number])[]) =>
    `M${xy.map(([x, y]) => `${round(cx + x * r)},${round(cy + y * r)}`).join("L")}Z`;
  switch (shape) {
    case "circle":
      return `M${round(cx - r)},${round(cy)}a${round(r)},${round(r)} 0 1,0 ${round(2 * r)},0a${round(r)},${round(r)} 0 1,0 ${round(-2 * r)},0Z`;
    case "square": {
      const s = 0.82;
      return pts([
        [-s, -s],
        [s, -s],
        [s, s],
        [-s, s],
      ]);
    }
    case "triangle":
      return pts([
        [0, -1],
        [0.95, 0.75],
        [-0.95, 0.75],
      ]);
    case "triangle-down":
      return pts([
        [0, 1],
        [0.95, -0.75],
        [-0.95, -0.75],
      ]);
    case "diamond":
      return pts([
        [0, -1],
        [1, 0],
        [0, 1],
        [-1, 0],
      ]);
    case "plus":
      return pts(barOutline(0.35));
    case "cross":
      return pts(barOutline(0.35).map(([x, y]) => rotate45(x, y)));
  }
}

/** A plus sign's outline, bars `w` (half-width, in radii) thick and 1 long. */
function barOutline(w: number): [number, number][] {
  return [
    [-w, -1],
    [w, -1],
    [w, -w],
    [1, -w],
    [1, w],
    [w, w],
    [w, 1],
    [-w, 1],
    [-w, w],
    [-1, w],
    [-1, -w],
    [-w, -w],
  ];
}

function rotate45(x: number, y: number): [number, number] {
  const c = Math.SQRT1_2;
  return [c * (x - y), c * (x + y)];
}

const round = (v: number) => Math.round(v * 100) / 100;
