/**
 * A value from outside (a link, a file) as an error message quotes it: numbers as JavaScript writes them
 * (Infinity, NaN: JSON would say null), the rest as JSON, cut to `max` characters with "…" so that a crafted
 * value cannot fill the lab's notice with its own text. Default max 40.
 */
export function quoted(v: unknown, max = 40): string {
  const text =
    typeof v === "number" ? String(v) : v === undefined ? "undefined" : (JSON.stringify(v) ?? String(v));
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}
