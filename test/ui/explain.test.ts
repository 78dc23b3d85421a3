/**
 * The explain panels' content (src/ui/explain): every registry algorithm has an explanation; every formula
 * and every inline math segment typesets with KaTeX (throwOnError, strict) and no TeX or "$" is left in the
 * text around it; the formulas use ../shared/docs/algorithms.md's symbols; papers are https arXiv abstract (or DOI)
 * links; knob labels come from each algorithm's field table.
 */
import { describe, expect, it } from "vitest";
import { ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";
import { EXPLANATIONS } from "../../src/ui/explain/content";
import { renderTex, splitMath } from "../../src/ui/explain/math_text";
import { PAPERS } from "../../src/ui/explain/papers";
import type { Explanation } from "../../src/ui/explain/types";

const PAPER_URL = /^https:\/\/(arxiv\.org\/abs\/\d{4}\.\d{4,5}|doi\.org\/10\.\d{4,9}\/[\w./-]+)$/;

/** Every text of a panel that may carry inline math. */
function texts(e: Explanation): string[] {
  return [
    e.summary,
    e.plain,
    ...e.paragraphs,
    ...e.needs,
    ...e.formulas.map((f) => f.note ?? ""),
    ...e.formulas.map((f) => f.label),
  ];
}

/** Sentences of a text once its inline math is set (a formula counts as a word). */
function sentences(text: string): number {
  const plain = splitMath(text)
    .map((s) => (s.kind === "text" ? s.text : "x"))
    .join("");
  return plain.split(/[.!?](?=\s|$)/).filter((s) => s.trim()).length;
}

/**
 * TeX that each algorithm's formulas must contain: the symbols of ../shared/docs/algorithms.md for that algorithm
 * (ratio, advantage, clip ranges, coefficients), so a rewrite cannot drift from the spec's notation.
 */
const SPEC_SYMBOLS: Record<string, string[]> = {
  ppo: [
    String.raw`\rho_t`,
    "A_t",
    String.raw`\varepsilon`,
    String.raw`\beta\, k_t`,
    "c_v L_v",
    "c_H",
    String.raw`\gamma\lambda`,
    String.raw`\varepsilon_v`,
  ],
  grpo: [
    String.raw`\varepsilon_{\text{high}}`,
    "10^{-4}",
    String.raw`\beta\, k_3`,
    "A_i",
    String.raw`\texttt{dr\_grpo}`,
  ],
  dpo: [
    String.raw`\sigma(\beta h)`,
    String.raw`\pi_{\text{ref}}(y_w)`,
    String.raw`\varepsilon_{\text{ls}}`,
    String.raw`\frac{1}{2\beta}`,
    String.raw`\gamma`,
  ],
  rloo: [String.raw`\frac{1}{G-1}\sum_{j \ne i} R_j`, String.raw`\beta \sum_t k_{1,t}`],
  reinforce: ["A_i = R_i - b", String.raw`\log\pi_\theta(y_t)`],
  bon: [String.raw`\log n - \frac{n-1}{n}`],
  expert_iteration: [String.raw`\log\pi_\theta(y_{i,t})`],
  kto: ["z_0", String.raw`\lambda_D`, String.raw`\lambda_U`, String.raw`\beta(r_\theta - z_0)`],
  orpo: [String.raw`\log\operatorname{odds}`, String.raw`L_{\text{SFT}}(y_w)`, String.raw`\lambda`],
  safe_rlhf: [String.raw`R - \lambda\, c`, String.raw`\eta\,(\operatorname{mean}(c) - d)`],
};

describe("explain panels", () => {
  it("cover exactly the registry's algorithms", () => {
    expect(Object.keys(EXPLANATIONS).sort()).toEqual([...ALGO_IDS].sort());
    for (const id of ALGO_IDS) expect(EXPLANATIONS[id].algo).toBe(id);
  });

  for (const id of ALGO_IDS) {
    describe(id, () => {
      const e = EXPLANATIONS[id];

      it("has a one-line plain summary and 3–6 sentences of explanation", () => {
        expect(e.summary).not.toMatch(/[$\\]/);
        expect(e.summary.length).toBeGreaterThan(30);
        expect(e.summary.length).toBeLessThanOrEqual(120);
        const n = e.paragraphs.reduce((a, p) => a + sentences(p), 0);
        expect(n, e.paragraphs.join(" ")).toBeGreaterThanOrEqual(3);
        expect(n).toBeLessThanOrEqual(6);
        expect(e.needs.length).toBeGreaterThan(0);
      });

      it("typesets every formula and inline math with KaTeX (throwOnError), leaving no TeX in the text", () => {
        expect(e.formulas.length).toBeGreaterThan(0);
        for (const f of e.formulas) {
          const html = renderTex(f.tex, true);
          expect(html).toContain('class="katex-display"');
          expect(html).not.toContain("katex-error");
        }
        for (const text of texts(e))
          for (const seg of splitMath(text))
            if (seg.kind === "math") expect(renderTex(seg.tex, false)).toContain('class="katex"');
            else expect(seg.text, `raw TeX in "${text}"`).not.toMatch(/[$\\]|\b(frac|pi_|beta)\b/);
      });

      it("writes its objective with the spec's symbols", () => {
        const all = e.formulas.map((f) => f.tex).join("\n");
        const symbols = SPEC_SYMBOLS[id];
        expect(
          symbols,
          `add ${id}'s symbols from ../shared/docs/algorithms.md to SPEC_SYMBOLS in this file`,
        ).toBeDefined();
        for (const sym of symbols ?? []) expect(all, sym).toContain(sym);
      });

      it("links its papers as https arXiv abstract or DOI pages, each once", () => {
        expect(e.papers.length).toBeGreaterThan(0);
        for (const p of e.papers) expect(p.url).toMatch(PAPER_URL);
        expect(new Set(e.papers.map((p) => p.url)).size).toBe(e.papers.length);
      });

      it("has knobs to list from its field table", () => {
        expect(ALGORITHMS[id].fields.length).toBeGreaterThan(0);
        for (const f of ALGORITHMS[id].fields) expect(f.doc.trim(), f.key).not.toBe("");
      });
    });
  }

  it("cites each paper under one URL, with a title and a year", () => {
    const all = Object.values(PAPERS);
    expect(new Set(all.map((p) => p.url)).size).toBe(all.length);
    for (const p of all) {
      expect(p.title.length).toBeGreaterThan(10);
      expect(p.year).toBeGreaterThanOrEqual(1990);
      expect(p.url).toMatch(PAPER_URL);
    }
  });

  it("rejects an unbalanced $ and a formula KaTeX cannot parse (what the panel's fallback shows)", () => {
    expect(() => splitMath("a $\\beta b")).toThrow(/unbalanced/);
    expect(() => renderTex("\\frac{1}{", true)).toThrow();
    expect(splitMath("ratio $\\rho_t$ clipped")).toEqual([
      { kind: "text", text: "ratio " },
      { kind: "math", tex: "\\rho_t" },
      { kind: "text", text: " clipped" },
    ]);
  });

  it("opens each panel in plain words: one to three sentences, none of the terms it defines later", () => {
    // Words a student who knows only supervised learning has not met yet (the paragraphs below define them).
    const jargon =
      /\b(advantages?|GAE|KL|estimator|value head|whiten\w*|baseline|policy|logits?|ratio|clip\w*|nats?)\b|\$/i;
    for (const id of ALGO_IDS) {
      const { plain } = EXPLANATIONS[id];
      expect(plain.match(jargon), id).toBeNull();
      expect(sentences(plain), id).toBeGreaterThanOrEqual(1);
      expect(sentences(plain), id).toBeLessThanOrEqual(3);
    }
  });
});
