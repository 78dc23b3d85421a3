/**
 * A copy of a chart's recharts <svg> that looks the same outside the page: each element's computed style (its
 * colours from the theme's CSS variables, dashes, fonts, opacity) written onto it, so a file viewer or an
 * <img> draws what the page drew, in either theme; the elements that only answer the mouse or the keyboard
 * (hover dots, the tooltip's cursor, focus rings, anything focusable) are left out.
 */

/**
 * Inherited properties written only where they differ from the parent's (the clone keeps the tree, so the rest
 * inherit the same value): most elements leave them at the page's, and the file stays small.
 */
const INHERITED_EXTRA = [
  "paint-order",
  "fill-rule",
  "stroke-dashoffset",
  "stroke-miterlimit",
  "shape-rendering",
  "font-style",
  "font-variant-numeric",
  "letter-spacing",
  "word-spacing",
  "text-transform",
] as const;
const ONLY_WHERE_CHANGED = new Set<string>(INHERITED_EXTRA);

/**
 * The style properties a chart's look depends on: every property the page's CSS sets (or the chart's elements
 * inherit) that changes what an SVG element draws — paint-order included, or a marker label's halo (charts.css:
 * paint-order stroke) is painted over its letters (svg_clone_props.test.ts checks the list against the CSS).
 */
export const INLINED = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-opacity",
  "stroke-linecap",
  "stroke-linejoin",
  "opacity",
  "visibility",
  "display",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
  ...INHERITED_EXTRA,
] as const;

/** Elements that exist for the mouse or the keyboard only. */
export const INTERACTIVE_ONLY =
  ".hover-dots, .recharts-tooltip-cursor, .recharts-active-dot, .recharts-tooltip-wrapper, foreignObject, button, a, [tabindex]";

/** Presentation attributes that may name a CSS variable, which a file viewer cannot resolve. */
const VAR_ATTRS = ["fill", "stroke", "color", "stop-color"];

/** The clone of `svg` with its computed look inlined, interactive-only elements removed, its size fixed. */
export function inlinedClone(svg: SVGSVGElement): SVGSVGElement {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll("*")];
  const to = [clone, ...clone.querySelectorAll("*")];
  for (let i = 0; i < from.length; i++) {
    const style = getComputedStyle(from[i]);
    const parent = i > 0 && from[i].parentElement ? getComputedStyle(from[i].parentElement as Element) : null;
    const el = to[i] as SVGElement;
    for (const a of VAR_ATTRS) if (el.getAttribute(a)?.includes("var(")) el.removeAttribute(a);
    const inline = INLINED.map((p) => [p, style.getPropertyValue(p)] as const)
      .filter(
        ([p, v]) => v !== "" && !(parent && ONLY_WHERE_CHANGED.has(p) && parent.getPropertyValue(p) === v),
      )
      .map(([p, v]) => `${p}:${v}`)
      .join(";");
    el.setAttribute("style", inline);
    el.removeAttribute("tabindex");
    el.removeAttribute("focusable");
  }
  for (const el of clone.querySelectorAll(INTERACTIVE_ONLY)) el.remove();
  const box = svg.getBoundingClientRect();
  clone.setAttribute("width", String(Math.round(box.width)));
  clone.setAttribute("height", String(Math.round(box.height)));
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.removeAttribute("class");
  return clone;
}

/** A CSS colour (a variable, a name) as the browser computes it in `within`'s context: "rgb(…)". */
export function resolvedColour(colour: string, within: Element): string {
  const probe = document.createElement("span");
  probe.style.color = colour;
  probe.style.display = "none";
  within.append(probe);
  const out = getComputedStyle(probe).color;
  probe.remove();
  return out;
}
