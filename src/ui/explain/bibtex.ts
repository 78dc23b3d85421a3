/**
 * BibTeX for the papers the explain panels cite (papers.ts), built from what papers.ts knows: the full author
 * list where it has one, else its short form ("Schulman et al." becomes "Schulman and others"); the title
 * without the lab's trailing note in parentheses ("(GRPO)"); arXiv papers as @misc with eprint and
 * archivePrefix, a paper with a known venue as @inproceedings, one with a journal as @article (journal,
 * volume, pages), DOI papers with their doi (verbatim, as biblatex reads it, like url). Pure: no DOM.
 */
import type { Paper } from "./papers";

/** Words that do not start a citation key ("the" in "The N+ Implementation…"). */
const STOP_WORDS = new Set(
  "a an the on of for in to and with from by is are your via at as its how what why when do does".split(" "),
);

/** Letters without accents, lower case, only a–z and 0–9 ("Günter" → "gunter"). */
function keyPart(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** The authors as BibTeX names: the full list, or the short form's names with "others" for "et al.". */
export function bibAuthors(p: Paper): string[] {
  if (p.authorList?.length) return [...p.authorList];
  const etAl = /\s+et al\.?$/.test(p.authors);
  const names = p.authors
    .replace(/\s+et al\.?$/, "")
    .split(/\s*(?:,|&|\band\b)\s*/)
    .filter(Boolean);
  return etAl ? [...names, "others"] : names;
}

/** The paper's title as published: without the lab's trailing note in parentheses. */
export function bibTitle(p: Paper): string {
  return p.title.replace(/\s*\([^()]*\)$/, "");
}

/** The citation key: first author's surname, year, first significant title word ("gao2022scaling"). */
export function bibKey(p: Paper): string {
  const first = bibAuthors(p)[0] ?? "anon";
  const surname = keyPart(first.split(/\s+/).at(-1) ?? first);
  const word = bibTitle(p)
    .split(/[^\p{L}\p{N}]+/u)
    .map(keyPart)
    .find((w) => w.length > 1 && !STOP_WORDS.has(w));
  return `${surname}${p.year}${word ?? ""}`;
}

/** Text made safe inside a BibTeX field's braces (braces, TeX's special characters). */
export function bibEscape(s: string): string {
  return s.replace(/[\\{}&%$#_~^]/g, (c) => {
    if (c === "\\") return "\\textbackslash{}";
    if (c === "~") return "\\textasciitilde{}";
    if (c === "^") return "\\textasciicircum{}";
    return `\\${c}`;
  });
}

/** The arXiv id of an arXiv abstract URL, else null. */
function arxivId(url: string): string | null {
  return /^https:\/\/arxiv\.org\/abs\/(.+)$/.exec(url)?.[1] ?? null;
}

/** One BibTeX entry for a paper (fields in a fixed order, two-space indent, no trailing comma). */
export function toBibtex(p: Paper): string {
  const fields: [string, string][] = [
    ["title", `{${bibEscape(bibTitle(p))}}`], // the inner braces keep its capitals (GRPO, LLM)
    ["author", bibAuthors(p).map(bibEscape).join(" and ")],
    ["year", String(p.year)],
  ];
  const eprint = arxivId(p.url);
  let type = "misc";
  if (p.journal) {
    type = "article";
    const { name, volume, pages } = p.journal;
    fields.push(["journal", bibEscape(name)], ["volume", bibEscape(volume)]);
    fields.push(["pages", bibEscape(pages.replace(/\s*[–-]+\s*/, "--"))]); // BibTeX's page range: "229--256"
  } else if (p.venue) {
    type = "inproceedings";
    fields.push(["booktitle", bibEscape(p.venue)]);
  }
  if (eprint) fields.push(["eprint", eprint], ["archivePrefix", "arXiv"]);
  const doi = /^https:\/\/doi\.org\/(.+)$/.exec(p.url)?.[1];
  // Verbatim (biblatex and hyperref read doi as they read url): an "_" stays "_"; only braces, which would
  // unbalance the field, are dropped (no DOI has one in practice).
  if (doi) fields.push(["doi", doi.replace(/[{}]/g, "")]);
  fields.push(["url", p.url]);
  const body = fields.map(([k, v]) => `  ${k} = {${v}}`).join(",\n");
  return `@${type}{${bibKey(p)},\n${body}\n}`;
}
