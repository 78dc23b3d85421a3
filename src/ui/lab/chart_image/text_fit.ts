/**
 * Text in a saved chart image that fits the image's width (./compose.ts): how wide a line is drawn (measured by a
 * canvas in the page, in the image's font; estimated where there is no canvas, as in the unit tests), and a long
 * line broken into lines that each fit — the footer after each " · ", the title before " vs ", then at spaces.
 */

/** How wide `text` is drawn at `px` px (`weight` as CSS writes it), in CSS px. */
export type Measure = (text: string, px: number, weight?: number) => number;

/** Wide letters, about 0.8 em and more in a sans-serif. */
const WIDE = /[MWmw@%&‖π]/u;
/** Narrow ones, about 0.3 em. */
const NARROW = /[ilI.,:;'|!()[\]\s·]/u;

/**
 * A width without measuring: per character 0.8 em (wide letters), 0.32 em (narrow ones) or 0.62 em (the rest),
 * 5 % more for bold — on the high side of a sans-serif's widths, so text it says fits does.
 */
export const estimateWidth: Measure = (text, px, weight = 400) => {
  let em = 0;
  for (const c of text) em += WIDE.test(c) ? 0.8 : NARROW.test(c) ? 0.32 : 0.62;
  return em * px * (weight >= 600 ? 1.05 : 1);
};

/** A Measure that draws nothing: the page's canvas measureText in `font` (a CSS font family); none: estimateWidth. */
export function canvasMeasure(font: string): Measure {
  const ctx = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
  if (!ctx) return estimateWidth;
  return (text, px, weight = 400) => {
    ctx.font = `${weight} ${px}px ${font}`;
    return ctx.measureText(text).width;
  };
}

/** Lines that fit, filled greedily from `pieces` joined by spaces (a piece too wide alone: a line of its own). */
function fill(pieces: readonly string[], fits: (s: string) => boolean): string[] {
  const lines: string[] = [];
  for (const p of pieces) {
    const last = lines[lines.length - 1];
    if (last !== undefined && fits(`${last} ${p}`)) lines[lines.length - 1] = `${last} ${p}`;
    else lines.push(p);
  }
  return lines;
}

/**
 * `text` as lines each at most `width` px wide (by `measure` at `px`, `weight`), joined by spaces giving `text`
 * back: broken first at `at` (" · ": after it, the next line starts with the next item; " vs ": before it),
 * then, where one part is still too wide, at spaces. A single word wider than `width` keeps its own line.
 */
export function wrapText(
  text: string,
  width: number,
  at: { sep: string; keep: "after" | "before" },
  measure: Measure,
  px: number,
  weight = 400,
): string[] {
  const fits = (s: string) => measure(s, px, weight) <= width;
  if (width <= 0 || fits(text)) return [text];
  const word = at.sep.trim();
  const parts = text.split(at.sep).map((p, i, all) => {
    if (at.keep === "after") return i < all.length - 1 ? `${p} ${word}` : p;
    return i > 0 ? `${word} ${p}` : p;
  });
  const pieces = parts.flatMap((p) => (fits(p) ? [p] : fill(p.split(" "), fits)));
  return fill(pieces, fits);
}
