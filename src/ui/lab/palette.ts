/**
 * One colour per run from the Okabe–Ito palette (colour-blind safe; Okabe & Ito 2008). The colours are CSS
 * variables (--run-0 … --run-6 in lab.css) so each theme can swap the one that vanishes on its background
 * (black and dark blue on dark; see lab.css); SVG strokes and HTML swatches both accept var(…).
 *
 * A run keeps its colour: removing or reordering runs never repaints the others (a student follows "the
 * orange run" across the charts). A run's spec may carry its slot (RunSpec.colour: set when it is added or
 * duplicated and on the runs left after a removal, so a reload or a shared link keeps it); without one, a run
 * keeps the slot it had before on this page, else takes the lowest free one, so a fresh page colours its runs
 * in order and a shared link looks the same for everyone.
 *
 * Slots past the palette (more than RUN_COLOURS runs at once) show a colour again, so they are drawn dotted
 * ({@link isDotted}: dotted lines, hollow legend swatches); such a slot is only held while every colour is
 * taken: as soon as one is free, a run in a slot past the palette moves to it (else it would share a colour
 * with a run whose lines are solid, and a link would pass the clash on).
 */
import { RUN_COLOURS } from "../../lab/protocol";
import { type RunShape, runShape } from "./run_shape";

export { RUN_COLOURS };

/** The colour of palette slot `index` (wrapping after RUN_COLOURS). */
export function runColour(index: number): string {
  return `var(--run-${((index % RUN_COLOURS) + RUN_COLOURS) % RUN_COLOURS})`;
}

/** Palette slots given so far on this page, by run id. */
const slots = new Map<string, number>();

/** Forget every assignment (tests; a new experiment). */
export function resetColours(): void {
  slots.clear();
}

interface Coloured {
  id: string;
  colour?: number;
}

/**
 * Palette slots by run id: a run's own `colour` unless an earlier run took it, else its slot from before on this
 * page if still free, else the lowest free slot. Slots past the palette (≥ RUN_COLOURS; runColour wraps) are
 * given only when every colour is taken: a run recorded in one takes a free colour when there is one; slots from
 * MAX_SHOWN_RUNS on (a third look of a colour) are never kept.
 */
export function colourSlots(runs: readonly Coloured[]): Record<string, number> {
  const used = new Set<number>();
  const out: Record<string, number> = {};
  const take = (id: string, s: number) => {
    used.add(s);
    slots.set(id, s);
    out[id] = s;
  };
  const inPalette = (s: number | undefined): s is number =>
    s !== undefined && s < RUN_COLOURS && !used.has(s);
  const keeps = (s: number | undefined): s is number => s !== undefined && s < MAX_SHOWN_RUNS && !used.has(s);
  for (const r of runs) if (inPalette(r.colour)) take(r.id, r.colour);
  for (const r of runs) {
    const s = slots.get(r.id);
    if (!(r.id in out) && inPalette(s)) take(r.id, s);
  }
  for (const r of runs) {
    if (r.id in out) continue;
    const free = lowestFree(used);
    const before = slots.get(r.id);
    if (free < RUN_COLOURS) take(r.id, free);
    else if (keeps(r.colour)) take(r.id, r.colour);
    else if (keeps(before)) take(r.id, before);
    else take(r.id, free);
  }
  return out;
}

function lowestFree(used: ReadonlySet<number>): number {
  let s = 0;
  while (used.has(s)) s++;
  return s;
}

/**
 * The slot a new run next to `runs` takes: the lowest one they leave free (past RUN_COLOURS − 1 when all
 * colours are taken: it shows a colour again, but keeps a slot of its own, so a reload paints every run as now).
 */
export function freeColour(runs: readonly Coloured[]): number {
  return lowestFree(new Set(Object.values(colourSlots(runs))));
}

/** `runs` with each one's current slot written into its spec (unchanged objects where it already is). */
export function withColours<R extends Coloured>(runs: readonly R[]): R[] {
  const s = colourSlots(runs);
  return runs.map((r) => (r.colour === s[r.id] ? r : { ...r, colour: s[r.id] }));
}

/**
 * The most runs the lab shows at once (its own, MAX_RUNS, and those imported for comparison): two looks per
 * colour, solid and dotted, so that no two runs look alike. Import refuses more.
 */
export const MAX_SHOWN_RUNS = 2 * RUN_COLOURS;

/** Whether palette slot `slot` is past the palette's colours: its run's lines are dotted, its swatch hollow. */
export function isDotted(slot: number): boolean {
  return slot >= RUN_COLOURS;
}

/**
 * A run's look on the charts and legends: its colour, whether it is drawn dotted (see colourSlots), and its
 * shape (./run_shape.ts: legend swatches and the lines' ends).
 */
export interface RunLook {
  colour: string;
  dotted: boolean;
  shape: RunShape;
}

/** Looks keyed by run id (see colourSlots). */
export function runLooks(runs: readonly Coloured[]): Record<string, RunLook> {
  return Object.fromEntries(
    Object.entries(colourSlots(runs)).map(([id, s]) => [
      id,
      { colour: runColour(s), dotted: isDotted(s), shape: runShape(s) },
    ]),
  );
}

/** Colours keyed by run id (see colourSlots). */
export function colourMap(runs: readonly Coloured[]): Record<string, string> {
  return Object.fromEntries(Object.entries(runLooks(runs)).map(([id, l]) => [id, l.colour]));
}
