/**
 * Every paper a lesson cites can be cited from its card (./LessonRefs.tsx): each reference with a paper's
 * address (arXiv, DOI) is a paper of ../explain/papers.ts, with a BibTeX entry and a Copy BibTeX button beside
 * its link, as in the explain panels; the label's author and year are the paper's. Rendered with
 * react-dom/server in Node.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LESSONS } from "../../lab/presets/index";
import { bibAuthors, bibKey, toBibtex } from "../explain/bibtex";
import { PAPERS, paperAt } from "../explain/papers";
import { LessonRefs } from "./LessonRefs";

/** A paper's address, as papers.ts writes them (test/ui/explain.test.ts PAPER_URL). */
const PAPER_URL = /^https:\/\/(arxiv\.org\/abs\/\d{4}\.\d{4,5}|doi\.org\/10\.\d{4,9}\/[\w./-]+)$/;
/** The lessons' references that are no paper: a blog post. */
const NOT_PAPERS = ["http://joschu.net/blog/kl-approx.html"];
const refs = Object.values(LESSONS).flatMap((l) => l.refs.map((r) => ({ lesson: l.id, ...r })));

describe("the lesson cards' papers", () => {
  it("every reference is a paper of papers.ts, but the known blog post", () => {
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) {
      if (NOT_PAPERS.includes(r.url)) continue;
      expect(r.url, `${r.lesson}: ${r.label}`).toMatch(PAPER_URL);
      const p = paperAt(r.url);
      expect(p, `${r.lesson}: ${r.label} has no entry in papers.ts`).not.toBeNull();
      if (!p) continue;
      // The label names the paper's first author and year ("… (Cui et al. 2025)").
      const surname = (bibAuthors(p)[0] ?? "").split(" ").at(-1) ?? "";
      expect(r.label, r.url).toContain(surname);
      expect(r.label, r.url).toContain(String(p.year));
    }
  });

  it("each lesson's card offers Copy BibTeX beside each of its papers", () => {
    for (const l of Object.values(LESSONS)) {
      const html = renderToStaticMarkup(createElement(LessonRefs, { refs: l.refs }));
      const papers = l.refs.filter((r) => !NOT_PAPERS.includes(r.url));
      expect(html.match(/>Copy BibTeX</g)?.length ?? 0, l.id).toBe(papers.length);
      for (const r of papers) {
        const p = paperAt(r.url);
        expect(html, r.label).toContain(`data-testid="bibtex-${p ? bibKey(p) : "?"}"`);
      }
      expect(html.match(/<a /g)?.length, l.id).toBe(l.refs.length);
    }
  });

  it("the lessons' own papers: their arXiv ids and full author lists where known", () => {
    expect(toBibtex(PAPERS.likelihoodDisplacement)).toContain(
      "  author = {Noam Razin and Sadhika Malladi and Adithya Bhaskar and Danqi Chen and Sanjeev Arora and Boris Hanin},",
    );
    expect(toBibtex(PAPERS.smaug)).toContain("  eprint = {2402.13228},");
    expect(toBibtex(PAPERS.entropyMechanism)).toContain("  author = {Cui and others},");
    expect(bibKey(PAPERS.entropyMechanism)).toBe("cui2025entropy");
  });
});
