/**
 * The run colours as the stylesheets set them, per theme: each is ≥ 3:1 against the backgrounds a run's line,
 * swatch or card edge sits on (WCAG 2.1 SC 1.4.11 non-text contrast, relative luminance as WCAG defines it), and
 * every pair stays apart for colour-blind eyes: ΔE*ab ≥ 10 after simulating protanopia, deuteranopia and
 * tritanopia (Machado, Oliveira & Fernandes 2009, severity 1, in linear sRGB). The two ways of choosing dark
 * (the system's preference, the toggle) give the same colours.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RUN_COLOURS } from "./palette";

const css = (name: string) => readFileSync(new URL(name, import.meta.url), "utf8");
const LAB = css("./lab.css");
const STYLES = css("../styles.css");

/** The custom properties of the first rule whose selector is exactly `selector` (and is followed by "{"). */
function vars(source: string, selector: string): Record<string, string> {
  const at = source.indexOf(`${selector} {`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  const body = source.slice(at, source.indexOf("}", at));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1], m[2]]));
}

const LIGHT = ":root";
const DARK = ':root[data-theme="dark"]';
const DARK_SYSTEM = ':root:not([data-theme="light"])';

function theme(selector: string) {
  const light = { ...vars(STYLES, LIGHT), ...vars(LAB, LIGHT) };
  return selector === LIGHT ? light : { ...light, ...vars(STYLES, selector), ...vars(LAB, selector) };
}

const linear = (hex: string) =>
  [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
const luminance = (hex: string) => {
  const [r, g, b] = linear(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const MACHADO: Record<string, number[][]> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

/** CIELAB (D65) of linear sRGB. */
function lab([r, g, b]: number[]): number[] {
  const [x, y, z] = [
    (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
    0.2126 * r + 0.7152 * g + 0.0722 * b,
    (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
  ];
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
const seen = (hex: string, m: number[][]) =>
  lab(
    m.map((row) =>
      Math.min(
        1,
        Math.max(
          0,
          row.reduce((a, w, j) => a + w * linear(hex)[j], 0),
        ),
      ),
    ),
  );
const deltaE = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe.each([
  ["light", LIGHT],
  ["dark", DARK],
])("the %s theme's run colours", (_, selector) => {
  const t = theme(selector);
  const runs = Array.from({ length: RUN_COLOURS }, (_, i) => t[`--run-${i}`]);

  it("are all set, and differ", () => {
    for (const c of runs) expect(c).toMatch(/^#[0-9a-f]{6}$/i);
    expect(new Set(runs).size).toBe(RUN_COLOURS);
  });

  it("are ≥ 3:1 on the page, the cards and the insets", () => {
    for (const bg of ["--bg", "--surface", "--surface-2"]) {
      const worst = Math.min(...runs.map((c) => contrast(c, t[bg])));
      console.log(`${selector} on ${bg} ${t[bg]}: worst contrast ${worst.toFixed(2)}:1`);
      for (const c of runs) expect(contrast(c, t[bg]), `${c} on ${bg} ${t[bg]}`).toBeGreaterThanOrEqual(3);
    }
  });

  it("stay ≥ 10 ΔE*ab apart under simulated protanopia, deuteranopia and tritanopia", () => {
    for (const [name, m] of Object.entries(MACHADO)) {
      let worst = Number.POSITIVE_INFINITY;
      for (let i = 0; i < runs.length; i++)
        for (let j = i + 1; j < runs.length; j++) {
          const d = deltaE(seen(runs[i], m), seen(runs[j], m));
          worst = Math.min(worst, d);
          expect(d, `${name}: ${runs[i]} vs ${runs[j]}`).toBeGreaterThanOrEqual(10);
        }
      console.log(`${selector}, ${name}: closest pair ${worst.toFixed(1)} ΔE*ab`);
    }
  });
});

describe.each([
  ["light", LIGHT],
  ["dark", DARK],
])("the %s theme's text and controls", (_, selector) => {
  const t = theme(selector);
  it("text and muted text are ≥ 4.5:1, a form control's edge ≥ 3:1, on the page, the cards and the insets", () => {
    for (const bg of ["--bg", "--surface", "--surface-2"]) {
      // WCAG 2.1 SC 1.4.3 (text) and 1.4.11 (the edge that shows an input, a select or an off switch).
      for (const [fg, min] of [
        ["--text", 4.5],
        ["--muted", 4.5],
        ["--control-border", 3],
      ] as const) {
        const c = contrast(t[fg], t[bg]);
        console.log(`${selector}: ${fg} ${t[fg]} on ${bg} ${t[bg]}: ${c.toFixed(2)}:1`);
        expect(c, `${fg} on ${bg}`).toBeGreaterThanOrEqual(min);
      }
    }
  });
});

it("dark by the system's preference and dark by the toggle give the same colours", () => {
  expect(vars(LAB, DARK_SYSTEM)).toEqual(vars(LAB, DARK));
  expect(vars(STYLES, DARK_SYSTEM)).toEqual(vars(STYLES, DARK));
});

it("the contrast ratio is WCAG's: black on white 21:1, white on white 1:1", () => {
  expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 10);
  expect(contrast("#ffffff", "#ffffff")).toBe(1);
  // Okabe–Ito's orange on white, the colour this theme had to darken.
  expect(contrast("#e69f00", "#ffffff")).toBeCloseTo(2.25, 2);
});
