/**
 * One colour per run from the Okabe–Ito palette (colour-blind safe; Okabe & Ito 2008). The colours are CSS
 * variables (--run-0 … --run-6 in lab.css) so each theme can swap the one that vanishes on its background
 * (black and dark blue on dark; see lab.css); SVG strokes and HTML swatches both accept var(…).
 *
 * A run keeps its colour for the page's life: removing or reordering runs never repaints the others (a
 * student follows "the orange run" across the charts). New runs take the lowest free colour; a fresh page
 * colours its runs in order, so a shared link looks the same for everyone.
 */
export const RUN_COLOURS = 7;

/** The colour of palette slot `index` (wrapping after RUN_COLOURS). */
export function runColour(index: number): string {
  return `var(--run-${((index % RUN_COLOURS) + RUN_COLOURS) % RUN_COLOURS})`;
}

/** Palette slots given so far, by run id. */
const slots = new Map<string, number>();

/** Forget every assignment (tests; a new experiment). */
export function resetColours(): void {
  slots.clear();
}

/** Colours keyed by run id: each run's slot from before if it still has it, else the lowest free one. */
export function colourMap(runs: readonly { id: string }[]): Record<string, string> {
  const used = new Set<number>();
  const out: Record<string, string> = {};
  for (const r of runs) {
    const s = slots.get(r.id);
    if (s !== undefined && !used.has(s)) {
      used.add(s);
      out[r.id] = runColour(s);
    }
  }
  for (const r of runs) {
    if (r.id in out) continue;
    let s = 0;
    while (used.has(s)) s++;
    used.add(s);
    slots.set(r.id, s);
    out[r.id] = runColour(s);
  }
  return out;
}
