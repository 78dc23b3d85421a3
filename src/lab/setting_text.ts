/**
 * A number setting as text, the way papers and TRL configs write them: magnitudes below 1e-3 as exponents
 * (learning rates 1e-4, 3e-5, 2.5e-4 — never 0.0001 beside 3e-5), the rest as decimals (0.04, 0.2, 1.5, 48).
 * Exact: the text parses back to the same number (Number(settingNumber(x)) === x), so a control can show it
 * in its input box. Round before calling to shorten it (see {@link roundedSetting}). Pure.
 */
export function settingNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (x !== 0 && (a < 1e-3 || a >= 1e21)) return x.toExponential();
  return String(x);
}

/** {@link settingNumber} of `x` rounded to `digits` significant digits (cards, markers, tooltips). */
export function roundedSetting(x: number, digits: number): string {
  return Number.isInteger(x) ? String(x) : settingNumber(Number(x.toPrecision(digits)));
}
