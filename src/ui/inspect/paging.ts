/**
 * Paging and choosing in the inspectors (./Pager.tsx): the rows of a page, the count line, the chosen index.
 */
import { useState } from "react";

/** The pages of `count` items, `size` a page: [first, end) of page `page` (clamped), and the page count. */
export function pageRange(page: number, count: number, size: number) {
  const pages = Math.max(1, Math.ceil(count / size));
  const p = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  return { page: p, pages, first: p * size, end: Math.min(count, (p + 1) * size) };
}

/** "16 prompts", or "the first 32 of 40 prompts" when a view holds only the first `shown` of `total`. */
export function countOf(shown: number, total: number, noun: string): string {
  const all = `${total} ${noun}${total === 1 ? "" : "s"}`;
  return shown < total ? `the first ${shown} of ${all}` : all;
}

/**
 * The chosen item of a list of `count`, kept inside it: a view of the same step can be smaller (a rewind re-ran
 * the step with a smaller batch).
 */
export function useChoice(count: number): [number, (index: number) => void] {
  const [chosen, setChosen] = useState(0);
  return [Math.max(0, Math.min(chosen, count - 1)), setChosen];
}
