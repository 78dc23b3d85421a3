/**
 * A run's legend swatch: a dot in its colour, hollow when its lines are dotted (a palette slot past the
 * palette's colours, ./palette.ts isDotted), so two runs that share a colour still differ in every legend.
 */
import type { RunLook } from "./palette";

export function RunSwatch({ look }: { look: RunLook }) {
  return look.dotted ? (
    <span className="legend-swatch hollow" style={{ borderColor: look.colour }} aria-hidden="true" />
  ) : (
    <span className="legend-swatch" style={{ background: look.colour }} aria-hidden="true" />
  );
}
