/** Number formatting for the tables and cards. Pure functions (unit-tested in format.test.ts). */

/** Scientific notation with 3 significant digits: 1.19e-7, 0.00e+0. Non-finite values as written by JS. */
export function sci3(x: number): string {
  return Number.isFinite(x) ? x.toExponential(2) : String(x);
}

/** A tolerance as typed in the source: 1e-4, 2.5e-5, 0.5; a computed one (2e-5 / 7) to 3 digits: 2.86e-6. */
export function tol(x: number): string {
  return x !== 0 && Math.abs(x) < 0.01 ? Number(x.toPrecision(3)).toExponential() : String(x);
}

/** Milliseconds with a precision that suits their size: 0.012, 1.23, 45.6, 1234. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return "—";
  if (x < 0.1) return x.toFixed(3);
  if (x < 10) return x.toFixed(2);
  if (x < 100) return x.toFixed(1);
  return int(Math.round(x));
}

/** Byte counts in binary units: 256 B, 16 KiB, 2 GiB, 1.5 GiB. */
export function bytes(x: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = x;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = Number.isInteger(v) ? 0 : 1;
  return `${v.toFixed(digits)} ${units[u]}`;
}

/** Integers with thousands separators, the same in every locale: 70 000 → "70,000". */
export function int(x: number): string {
  return x.toLocaleString("en-US");
}
