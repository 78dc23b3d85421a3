/**
 * Inline math in explanation text: "the ratio $\rho_t$ is clipped" → text and math segments. Pure (no DOM),
 * so the unit tests check every text of every panel the same way the panel renders it.
 */
import katex from "katex";

export type Segment = { kind: "text"; text: string } | { kind: "math"; tex: string };

/**
 * Split text at single dollar signs: odd pieces are math. Every text segment comes back free of "$".
 * @throws Error on an unbalanced "$" (naming the text), so a typo fails the tests instead of showing raw TeX.
 */
export function splitMath(text: string): Segment[] {
  const parts = text.split("$");
  if (parts.length % 2 === 0) throw new Error(`unbalanced $ in explanation text: "${text}"`);
  const out: Segment[] = [];
  parts.forEach((p, i) => {
    if (i % 2 === 1) out.push({ kind: "math", tex: p });
    else if (p) out.push({ kind: "text", text: p });
  });
  return out;
}

/**
 * KaTeX HTML (with MathML for screen readers) for one formula.
 * @param display display mode (a centred block) or inline.
 * @throws katex.ParseError on invalid TeX (throwOnError: true; the TeX component shows a fallback instead).
 */
export function renderTex(tex: string, display: boolean): string {
  return katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "error" });
}
