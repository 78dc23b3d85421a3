/**
 * A value from outside (a link, a file) as an error message quotes it: numbers as JavaScript writes them
 * (Infinity, NaN: JSON would say null), the rest as JSON, cut to `max` characters with "…" so that a crafted
 * value cannot fill the lab's notice with its own text. Default max 40. Costs O(max), whatever the value's
 * size: a string is cut before it is quoted, and a list or object is written only as far as `max` reaches.
 */
export function quoted(v: unknown, max = 40): string {
  const out = { text: "", full: false };
  write(v, out, max, 0);
  const chars = Array.from(out.text.slice(0, 2 * max + 2));
  return out.full || chars.length > max ? `${chars.slice(0, max).join("")}…` : out.text;
}

/** Append JSON for `v` to `out.text` until it holds more than `max` characters (then `out.full`). */
function write(v: unknown, out: { text: string; full: boolean }, max: number, depth: number): void {
  if (out.full) return;
  const add = (t: string) => {
    out.text += t;
    if (out.text.length > max) out.full = true;
  };
  if (typeof v === "number") add(String(v));
  // Plain (plainText): a bidi override in a quoted value would reverse the message's own words after it.
  else if (typeof v === "string")
    add(JSON.stringify(plainText(v.slice(0, 4 * max)).slice(0, max + 1)) + (v.length > max + 1 ? "…" : ""));
  else if (v === undefined) add("undefined");
  else if (v === null || typeof v !== "object") add(JSON.stringify(v) ?? String(v));
  else if (depth > max) add("…");
  else if (Array.isArray(v)) {
    add("[");
    for (let i = 0; i < v.length && !out.full; i++) {
      if (i) add(",");
      write(v[i], out, max, depth + 1);
    }
    add("]");
  } else {
    add("{");
    let first = true;
    for (const k in v) {
      if (out.full) break;
      if (!Object.hasOwn(v, k)) continue;
      add(`${first ? "" : ","}${JSON.stringify(k.slice(0, max + 1))}:`);
      first = false;
      write((v as Record<string, unknown>)[k], out, max, depth + 1);
    }
    add("}");
  }
}

/**
 * Text from outside as the page shows it: without control characters (C0, DEL, C1), invisible format characters
 * (bidi marks and overrides, zero-width spaces and joiners, BOM, soft hyphen) and other default-ignorable code
 * points (variation selectors, the combining grapheme joiner, Hangul fillers), trimmed. A bidi override would
 * reverse the page's own words after it; an invisible one would make two labels look alike.
 */
export function plainText(s: string): string {
  return s.replace(/[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, "").trim();
}

/** A name from outside as a message shows it, unquoted: plain text (plainText), cut to `max` characters with "…". */
export function clipped(s: string, max = 40): string {
  const chars = Array.from(plainText(s.slice(0, 4 * max)));
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : chars.join("");
}
