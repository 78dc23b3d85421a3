/** Number formatting for the lab's charts, cards and tooltips. Pure functions (numbers.test.ts). */
import { int } from "../format";

/**
 * A value with `digits` significant digits, the way a person reads it: 0.0123, 1.23, 123, 1,235 (whole numbers
 * below a million in full, with thousands separators from 1,000), 1.64M; very small or very large magnitudes as
 * exponents (1.23e-5, 4.56e+9). Non-finite values as "NaN", "∞", "−∞".
 * `keepZeros`: trailing zeros stay (0.700, not 0.7), for numbers read side by side ("0.693 → 0.700").
 */
export function sig(x: number, digits = 3, keepZeros = false): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 1e9 || a < 1e-4) return x.toExponential(digits - 1).replace(/\.?0+e/, "e");
  // 65,438,984 is 8 digits where 3 were asked for (a count below a million still reads whole).
  if (a >= 1e6) {
    const m = x / 1e6;
    // 999,950,000 at 3 digits rounds to 1000M: an exponent then, as from 1e9.
    if (Math.abs(Number(m.toPrecision(digits))) < 1000) return `${sig(m, digits, keepZeros)}M`;
    return x.toExponential(digits - 1).replace(/\.?0+e/, "e");
  }
  if (a >= 10 ** digits) return int(Math.round(x));
  // toPrecision keeps trailing zeros (1.50); strip them, a chart tick reads better as 1.5.
  const text = keepZeros ? x.toPrecision(digits) : String(Number(x.toPrecision(digits)));
  // 1,800 as the axis writes it (not 1800 beside its tick 2,000).
  return a >= 1000 ? text.replace(/^-?\d+/, (whole) => int(Number(whole))) : text;
}

/** Axis ticks: short, with k/M suffixes for large counts (1.2k, 3.4M) and 3 significant digits otherwise. */
export function tick(x: number): string {
  const a = Math.abs(x);
  if (a >= 1e6 && a < 1e12) return `${sig(x / 1e6, 3)}M`;
  if (a >= 1e4 && a < 1e6) return `${sig(x / 1e3, 3)}k`;
  return sig(x, 3);
}

/**
 * A tick formatter for these ticks (round values: series.ts niceDomain, niceTicksWithin): every tick with the same
 * number of decimals, as many as the roundest step needs to be written exactly (0.00, 0.25, 0.50; 2.675, 2.700,
 * 2.725 — never 2.675 shown as "2.67" beside "2.7"), with k/M suffixes for large counts (12.5k, 3.4M) and
 * thousands separators. Ticks that no 6 decimals write exactly, all below 1e-4 or from 1e12, fall back to {@link tick}
 * with as many significant digits (3 to 8) as it takes for neighbouring ticks to read differently.
 */
export function tickFormatter(ticks: readonly number[]): (x: number) => string {
  const finite = ticks.filter(Number.isFinite);
  const top = Math.max(0, ...finite.map(Math.abs));
  const [scale, suffix] =
    top >= 1e6 && top < 1e12 ? [1e6, "M"] : top >= 1e4 && top < 1e6 ? [1e3, "k"] : [1, ""];
  const exact = (v: number, d: number) =>
    Math.abs(Number(v.toFixed(d)) - v) <= 1e-9 * Math.max(1, Math.abs(v));
  let decimals = 0;
  while (decimals <= 6 && !finite.every((t) => exact(t / scale, decimals))) decimals++;
  if (decimals <= 6 && top >= 1e-4 && top < 1e12) {
    const fmt = new Intl.NumberFormat("en-US", {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    // −0 (a tick a hair below 0 rounded) reads as 0.
    return (x) =>
      !Number.isFinite(x) ? sig(x) : x === 0 && suffix ? "0" : `${fmt.format(x / scale + 0)}${suffix}`;
  }
  for (let d = 3; d <= 8; d++) {
    const f = (x: number) => {
      const a = Math.abs(x);
      if (a >= 1e6 && a < 1e12) return `${sig(x / 1e6, d)}M`;
      if (a >= 1e4 && a < 1e6) return `${sig(x / 1e3, d)}k`;
      return sig(x, d);
    };
    if (new Set(ticks.map(f)).size === ticks.length) return f;
  }
  return (x) => sig(x, 8);
}

/**
 * A y axis's width (px) for its tick labels at 12 px: 52 at least (the labels of most charts), more for long
 * labels ("0.19745"; a digit is about 7 px), 90 at most.
 */
export function tickAxisWidth(ticks: readonly number[], format: (x: number) => string): number {
  return Math.min(90, Math.max(52, 16 + 7 * Math.max(0, ...ticks.map((t) => format(t).length))));
}

/** A value with its unit, if any: "0.123 nats", "12.5 tokens", "0.42". */
export function withUnit(x: number, unit: string | undefined, digits = 3): string {
  return unit ? `${sig(x, digits)} ${unit}` : sig(x, digits);
}

/**
 * A value at full precision, exactly as the metrics CSV (Papa.unparse writes String(n)) and the chart's data
 * table (JSON) write it: the shortest text that reads back as the same double ("-0.13812345678901234").
 */
export function exact(x: number): string {
  return String(x);
}
