/**
 * Paging in the inspectors: pageRange's arithmetic, and the pair table's pages (server-rendered, no DOM): each
 * page shows its 8 pairs numbered by their place in the batch, with the range and the ends' buttons disabled.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { InspectPair, PairsInspect } from "../../lab/inspect/types";
import { Chooser } from "./Pager";
import { PAIR_PAGE, PairTable } from "./PairTable";
import { pageRange } from "./paging";

describe("pageRange", () => {
  it("splits count items into pages of size, the last one short, and clamps the page", () => {
    expect(pageRange(0, 20, 8)).toEqual({ page: 0, pages: 3, first: 0, end: 8 });
    expect(pageRange(2, 20, 8)).toEqual({ page: 2, pages: 3, first: 16, end: 20 });
    expect(pageRange(7, 20, 8)).toEqual({ page: 2, pages: 3, first: 16, end: 20 });
    expect(pageRange(-1, 20, 8)).toEqual({ page: 0, pages: 3, first: 0, end: 8 });
    expect(pageRange(0, 16, 8).pages).toBe(2);
    expect(pageRange(0, 0, 8)).toEqual({ page: 0, pages: 1, first: 0, end: 0 });
  });
});

function view(n: number, total = n): PairsInspect {
  const side = (logp: number) => ({ text: "5", length: 1, logp, logpRef: -1, reward: 0.1 * (logp + 1) });
  const pairs: InspectPair[] = Array.from({ length: n }, (_, i) => ({
    prompt: `${i}+1=`,
    chosen: side(-1 + 0.01 * i),
    rejected: side(-2),
    margin: 0.1,
    prob: 0.525,
    loss: 0.644,
    flipped: false,
  }));
  return {
    kind: "pairs",
    step: 3,
    algo: "dpo",
    lossType: "sigmoid",
    beta: 0.1,
    labelSmoothing: 0,
    simpoGamma: 0,
    pairs,
    totalPairs: total,
  };
}

const render = (v: PairsInspect, initialPage?: number) =>
  renderToStaticMarkup(createElement(PairTable, { view: v, initialPage }));
const shownPairs = (html: string) => [...html.matchAll(/data-pair="(\d+)"/g)].map((m) => Number(m[1]));

describe("PairTable pages", () => {
  it("shows one page of a batch, numbered from its place in the batch", () => {
    expect(PAIR_PAGE).toBe(8);
    const first = render(view(20));
    expect(shownPairs(first)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(first).toContain("1–8 of 20 pairs");
    expect(first).toMatch(/data-testid="inspect-pair-pager-prev" aria-disabled="true"/);
    expect(first).toMatch(/data-testid="inspect-pair-pager-next" aria-disabled="false"/);
    const last = render(view(20), 2);
    expect(shownPairs(last)).toEqual([16, 17, 18, 19]);
    expect(last).toContain("17–20 of 20 pairs");
    expect(last).toContain(">17.</span>");
    expect(last).toMatch(/data-testid="inspect-pair-pager-next" aria-disabled="true"/);
    expect(last).toMatch(/data-testid="inspect-pair-pager-prev" aria-disabled="false"/);
  });

  it("has no pager when one page holds the batch, and says when the view holds only the first pairs", () => {
    const one = render(view(8));
    expect(shownPairs(one)).toHaveLength(8);
    expect(one).not.toContain("inspect-pair-pager");
    expect(one).toContain("8 pairs");
    expect(render(view(32, 64), 1)).toContain("9–16 of the first 32 of 64 pairs");
  });
});

describe("Chooser", () => {
  it("labels its select, lists the options and marks the ends", () => {
    const html = renderToStaticMarkup(
      createElement(Chooser, {
        label: "Prompt",
        what: "prompt",
        options: ["#1 · 2+2=", "#2 · 3+5="],
        index: 1,
        onChange: () => {},
        testId: "inspect-group",
      }),
    );
    expect(html).toContain('id="inspect-group-label">Prompt</span>');
    expect(html).toContain('aria-labelledby="inspect-group-label"');
    expect([...html.matchAll(/<option value="(\d)"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2]])).toEqual([
      ["0", "#1 · 2+2="],
      ["1", "#2 · 3+5="],
    ]);
    expect(html).toMatch(/data-testid="inspect-group-pager-next" aria-disabled="true"/);
    expect(html).toMatch(/data-testid="inspect-group-pager-prev" aria-disabled="false"/);
  });
});
