/**
 * The BibTeX of every paper the explain panels cite (src/ui/explain/bibtex.ts): balanced braces, unique keys
 * in the surname-year-word form, the required fields, arXiv ids as eprint, "and others" for "et al.", and
 * TeX's special characters escaped.
 */
import { describe, expect, it } from "vitest";
import { bibAuthors, bibEscape, bibKey, toBibtex } from "../../src/ui/explain/bibtex";
import { PAPERS, type Paper } from "../../src/ui/explain/papers";

const ALL: [string, Paper][] = Object.entries(PAPERS);

/** Braces balance (ignoring escaped ones) and never close below zero. */
function balanced(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") {
      i++;
      continue;
    }
    if (s[i] === "{") depth++;
    if (s[i] === "}" && --depth < 0) return false;
  }
  return depth === 0;
}

/** The fields of one entry: name → value (outer braces off). */
function fields(bib: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of bib.matchAll(/^ {2}(\w+) = \{(.*)\},?$/gm)) out[m[1]] = m[2];
  return out;
}

describe("toBibtex on every paper of papers.ts", () => {
  it.each(ALL)("%s: one well-formed entry with title, author, year, url", (_id, p) => {
    const bib = toBibtex(p);
    expect(bib).toMatch(/^@(misc|article|inproceedings)\{[a-z]+\d{4}[a-z0-9]+,\n/);
    expect(bib.endsWith("\n}")).toBe(true);
    expect(balanced(bib)).toBe(true);
    const f = fields(bib);
    for (const k of ["title", "author", "year", "url"]) expect(f[k], k).toBeTruthy();
    expect(f.year).toBe(String(p.year));
    expect(f.url).toBe(p.url);
    // The lab's trailing note ("(GRPO)") is not part of the title.
    expect(f.title).not.toMatch(/\)\}$/);
    const arxiv = /arxiv\.org\/abs\/(.+)$/.exec(p.url)?.[1];
    if (arxiv) {
      expect(f.eprint).toBe(arxiv);
      expect(f.archivePrefix).toBe("arXiv");
    } else expect(f.doi).toBe(p.url.replace("https://doi.org/", ""));
    if (p.authors.includes("et al.") && !p.authorList) expect(f.author).toMatch(/ and others$/);
  });

  it("gives every paper its own key", () => {
    const keys = ALL.map(([, p]) => bibKey(p));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("keys as Google Scholar does: surname, year, first significant title word", () => {
    expect(bibKey(PAPERS.gao)).toBe("gao2022scaling");
    expect(bibKey(PAPERS.ppo)).toBe("schulman2017proximal");
    expect(bibKey(PAPERS.nPlus)).toBe("huang2024implementation"); // "The" and "N+" skipped
    expect(bibKey(PAPERS.pidLagrangian)).toBe("stooke2020responsive");
  });

  it("writes the authors joined with ' and ', the full list where papers.ts has one", () => {
    expect(toBibtex(PAPERS.gao)).toContain("  author = {Leo Gao and John Schulman and Jacob Hilton},");
    expect(bibAuthors(PAPERS.pidLagrangian)).toEqual(["Adam Stooke", "Joshua Achiam", "Pieter Abbeel"]);
    expect(bibAuthors(PAPERS.rloo)).toEqual(["Ahmadian", "others"]);
    expect(bibAuthors({ ...PAPERS.pidLagrangian, authorList: undefined })).toEqual([
      "Stooke",
      "Achiam",
      "Abbeel",
    ]);
  });

  it("escapes braces and TeX's special characters; a known venue makes it @inproceedings", () => {
    expect(bibEscape("A {b} & 50% $x_1$ #2 ~ ^ \\")).toBe(
      "A \\{b\\} \\& 50\\% \\$x\\_1\\$ \\#2 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}",
    );
    const odd: Paper = {
      authors: "Doe et al.",
      year: 2024,
      title: "Braces {and} 100% of R&D",
      url: "https://arxiv.org/abs/2401.00001",
      venue: "NeurIPS",
    };
    const bib = toBibtex(odd);
    expect(bib.startsWith("@inproceedings{doe2024braces,\n")).toBe(true);
    expect(bib).toContain("  title = {{Braces \\{and\\} 100\\% of R\\&D}},");
    expect(bib).toContain("  booktitle = {NeurIPS},");
    expect(balanced(bib)).toBe(true);
  });

  it("writes a doi verbatim, as biblatex reads it (like url): no TeX escapes", () => {
    const p: Paper = {
      authors: "Doe",
      year: 2020,
      title: "Under_scores",
      url: "https://doi.org/10.1000/a_b%c",
    };
    const bib = toBibtex(p);
    expect(bib).toContain("  doi = {10.1000/a_b%c},");
    expect(bib).toContain("  title = {{Under\\_scores}},"); // text is still escaped
    expect(toBibtex({ ...p, url: "https://doi.org/10.1000/x{y}" })).toContain("  doi = {10.1000/xy},");
  });

  it("makes a journal paper @article with journal, volume and pages (Williams 1992)", () => {
    const bib = toBibtex(PAPERS.williams);
    expect(bib.startsWith("@article{williams1992simple,\n")).toBe(true);
    const f = fields(bib);
    expect(f.journal).toBe("Machine Learning");
    expect(f.volume).toBe("8");
    expect(f.pages).toBe("229--256");
    expect(f.doi).toBe("10.1007/BF00992696");
    expect(f.booktitle).toBeUndefined();
  });
});
