/**
 * One colour per run from the Okabe–Ito palette (colour-blind safe; Okabe & Ito 2008). The colours are CSS
 * variables (--run-0 … --run-6 in lab.css) so each theme can swap the one that vanishes on its background
 * (black on dark, yellow on light); SVG strokes and HTML swatches both accept var(…).
 */
export const RUN_COLOURS = 7;

/** The colour of the run at `index` in the experiment's run list. */
export function runColour(index: number): string {
  return `var(--run-${((index % RUN_COLOURS) + RUN_COLOURS) % RUN_COLOURS})`;
}

/** Colours keyed by run id, in the experiment's run order. */
export function colourMap(runs: readonly { id: string }[]): Record<string, string> {
  return Object.fromEntries(runs.map((r, i) => [r.id, runColour(i)]));
}
