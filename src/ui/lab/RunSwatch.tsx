/**
 * A run's legend swatch: its shape (./run_shape.ts) in its colour, hollow when its lines are dotted (a palette
 * slot past the palette's colours, ./palette.ts isDotted), so two runs that share a colour still differ in every
 * legend, and runs whose colours look alike to a viewer differ by shape.
 */
import type { RunLook } from "./palette";
import { shapePath } from "./run_shape";

/** Swatch size, px (the SVG's box; the shape fills it less its outline). */
const SIZE = 12;

export function RunSwatch({ look }: { look: RunLook }) {
  const c = SIZE / 2;
  return (
    <svg
      className={`legend-swatch${look.dotted ? " hollow" : ""}`}
      data-shape={look.shape}
      width={SIZE}
      height={SIZE}
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      aria-hidden="true"
    >
      <path
        d={shapePath(look.shape, c, c, look.dotted ? c - 1.5 : c - 0.5)}
        fill={look.dotted ? "none" : look.colour}
        stroke={look.colour}
        strokeWidth={look.dotted ? 2 : 1}
        strokeLinejoin="round"
      />
    </svg>
  );
}
