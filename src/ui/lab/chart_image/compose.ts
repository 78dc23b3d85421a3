/**
 * A chart image as one SVG document: a title, the legend (./legend.ts) as SVG text and shapes, the chart's own
 * SVG (cloned with its styles inlined: ./svg_clone.ts) and the footer of its settings, on the theme's
 * background. The title, footer and legend wrap to the chart's width (./text_fit.ts), the image growing taller.
 * Pure string building, so the tests read what the page saves.
 */
import { shapePath } from "../run_shape";
import type { ImageLegendEntry } from "./legend";
import { estimateWidth, type Measure, wrapText } from "./text_fit";

const SVG_NS = "http://www.w3.org/2000/svg";
const PAD = 12;
const TITLE_PX = 15;
const LEGEND_PX = 12;
const FOOTER_PX = 11;
const ROW_PX = 20;
/** Baseline to baseline of the title's and the footer's lines (px). */
const TITLE_LINE_PX = 19;
const FOOTER_LINE_PX = 15;
/** The sample line before each legend name (px). */
const SWATCH_PX = 26;

export interface ImageColours {
  /** The page's text colour, the muted one (footer, style entries) and the chart's background. */
  text: string;
  muted: string;
  background: string;
  /** The font family the chart's text is drawn in. */
  font: string;
}

export interface ImageParts {
  /** The chart's <svg> element, serialised, its styles inlined. */
  chart: string;
  width: number;
  height: number;
  title: string;
  legend: readonly ImageLegendEntry[];
  footer: string;
  colours: ImageColours;
  /** A run colour as the page writes it (var(--run-0)) → a colour any SVG viewer reads. */
  resolve: (colour: string) => string;
  /** How wide text is drawn in the image's font (the page: canvasMeasure); none: estimateWidth. */
  measure?: Measure;
}

/** Text for an SVG text node or attribute. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Each legend entry's left x and row, wrapped to `width`. */
function legendPlaces(
  legend: readonly ImageLegendEntry[],
  width: number,
  measure: Measure,
): { x: number; row: number }[] {
  let x = PAD;
  let row = 0;
  return legend.map((e) => {
    const w = SWATCH_PX + 6 + measure(e.label, LEGEND_PX) + 16;
    if (x > PAD && x + w > width - PAD) {
      x = PAD;
      row++;
    }
    const at = { x, row };
    x += w;
    return at;
  });
}

/** One legend entry: a short line in the run's colour and dash (none: dots only), its shape on it, then its name. */
function legendEntry(e: ImageLegendEntry, x: number, y: number, parts: ImageParts): string {
  const colour = e.colour === null ? parts.colours.muted : parts.resolve(e.colour);
  const dash = e.dash ? ` stroke-dasharray="${e.dash}"` : "";
  const cap = e.hollow ? ` stroke-linecap="round"` : "";
  const line = e.dotsOnly
    ? ""
    : `<line x1="${x}" y1="${y}" x2="${x + SWATCH_PX}" y2="${y}" stroke="${escapeXml(colour)}" stroke-width="2"${dash}${cap}/>`;
  const shape = e.shape
    ? `<path d="${shapePath(e.shape, x + SWATCH_PX / 2, y, 5)}" fill="${escapeXml(e.hollow ? parts.colours.background : colour)}" stroke="${escapeXml(e.hollow ? colour : parts.colours.background)}" stroke-width="${e.hollow ? 2 : 1.25}" stroke-linejoin="round" data-shape="${e.shape}"/>`
    : "";
  const fill = e.colour === null ? parts.colours.muted : parts.colours.text;
  const text = `<text x="${x + SWATCH_PX + 6}" y="${y + 4}" font-size="${LEGEND_PX}" fill="${escapeXml(fill)}">${escapeXml(e.label)}</text>`;
  return `<g class="image-legend-entry">${line}${shape}${text}</g>`;
}

/** Lines of text, one <text> each at `x`, the first baseline at `y`, `step` px apart, in a group of `attrs`. */
function textLines(lines: readonly string[], x: number, y: number, step: number, attrs: string): string {
  const texts = lines.map((l, i) => `<text x="${x}" y="${y + i * step}">${escapeXml(l)}</text>`);
  return `<g ${attrs}>${texts.join("")}</g>`;
}

/** The whole image: its SVG text and size (px). */
export function composeSvg(parts: ImageParts): { svg: string; width: number; height: number } {
  const { width, colours } = parts;
  const measure = parts.measure ?? estimateWidth;
  const inner = width - 2 * PAD;
  const title = wrapText(parts.title, inner, { sep: " vs ", keep: "before" }, measure, TITLE_PX, 600);
  const footer = wrapText(parts.footer, inner, { sep: " · ", keep: "after" }, measure, FOOTER_PX);
  const places = legendPlaces(parts.legend, width, measure);
  const rows = parts.legend.length ? Math.max(...places.map((p) => p.row)) + 1 : 0;
  const legendTop = PAD + TITLE_PX + 10 + (title.length - 1) * TITLE_LINE_PX;
  const chartTop = legendTop + rows * ROW_PX + 4;
  const footerY = chartTop + parts.height + FOOTER_PX + 6;
  const height = Math.ceil(footerY + (footer.length - 1) * FOOTER_LINE_PX + PAD - 4);
  const legend = parts.legend
    .map((e, i) => legendEntry(e, places[i].x, legendTop + places[i].row * ROW_PX + ROW_PX / 2, parts))
    .join("");
  const svg = [
    `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(colours.font)}">`,
    `<rect width="100%" height="100%" fill="${escapeXml(colours.background)}"/>`,
    textLines(
      title,
      PAD,
      PAD + TITLE_PX - 2,
      TITLE_LINE_PX,
      `class="image-title" font-size="${TITLE_PX}" font-weight="600" fill="${escapeXml(colours.text)}"`,
    ),
    `<g class="image-legend">${legend}</g>`,
    `<g class="image-chart" transform="translate(0 ${chartTop})">${parts.chart}</g>`,
    textLines(
      footer,
      PAD,
      footerY,
      FOOTER_LINE_PX,
      `class="image-footer" font-size="${FOOTER_PX}" fill="${escapeXml(colours.muted)}"`,
    ),
    "</svg>",
  ].join("");
  return { svg, width, height };
}
