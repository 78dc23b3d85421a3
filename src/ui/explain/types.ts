/**
 * The shape of an algorithm's explanation (content as data, one module per family): a one-line summary for
 * the run picker, a few plain paragraphs for a student who knows supervised learning, what the algorithm
 * needs, its objective as KaTeX formulas (symbols as in ../shared/docs/algorithms.md), and the papers.
 *
 * Text fields (summary, paragraphs, needs, notes) may hold inline math between single dollar signs, e.g.
 * "the ratio $\rho_t$"; the panel typesets it with KaTeX (./math_text.ts splits it), so no dollar sign or
 * TeX command ever reaches the page as text.
 */
import type { AlgoId } from "../../lab/registry";
import type { Paper } from "./papers";

/** One displayed equation. */
export interface Formula {
  /** What it is, shown above it: "Clipped policy loss". */
  label: string;
  /** KaTeX source (display mode), rendered with throwOnError. */
  tex: string;
  /** One sentence under it (may hold inline $…$ math): defaults, conventions, what the symbols are. */
  note?: string;
}

export interface Explanation {
  algo: AlgoId;
  /** One line for the run picker: what the algorithm optimises, from which signal. */
  summary: string;
  /**
   * The idea in plain words, first, for a student who knows supervised learning only: no term the panel has
   * not defined yet (no "advantage", "GAE", "KL estimator").
   */
  plain: string;
  /** 3–6 sentences in one to three paragraphs: what it optimises, where the signal comes from, how it updates. */
  paragraphs: readonly string[];
  /** What a run needs, one short item each: "reference model $\pi_{\text{ref}}$ (KL penalty)". */
  needs: readonly string[];
  /** The objective / loss and its parts, in the order a student should read them. */
  formulas: readonly Formula[];
  /** The papers, most important first. */
  papers: readonly Paper[];
}
