/**
 * The chart's hover card (ChartParts.tsx ChartTip, server-rendered): each line's value at the hovered x, and the
 * settings changes made there, named once (a small chart draws no marker labels; a crowded one drops some).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChartTip, TIP_ROWS } from "./ChartParts";
import type { DrawnSeries } from "./chart_types";
import { hoverDots } from "./hover_dots";

const line = (runId: string, runLabel: string, raw: number, smooth: number): DrawnSeries => ({
  id: `${runId}-reward`,
  line: { runId, runLabel, colour: "red", metric: "reward", history: [] },
  points: [
    { step: 11, x: 11, raw: 0.5, smooth: 0.5, sx: 11 },
    { step: 12, x: 12, raw, smooth, sx: 12 },
  ],
  drawn: [],
  total: 1,
});

describe("ChartTip", () => {
  const series = [line("ppo-1", "PPO", 0.03, 0.1), line("grpo-1", "GRPO", 0.00798, 0.2)];
  const markers = [
    { x: 12, text: "β 0.05 → 0.5 · 2 runs" },
    { x: 12, text: "β 0.05 → 0.5 · 2 runs" }, // the same change on the second run
    { x: 11, text: "ε 0.2 → 0.3 · GRPO" },
    { x: undefined, text: "lr 1e-3 → 3e-3 · PPO" },
  ];

  it("names the changes made at the hovered x once, and no others", () => {
    const html = renderToStaticMarkup(
      createElement(ChartTip, { x: 12, series, xLabel: "step", drawn: "smooth", markers }),
    );
    expect(html.match(/data-testid="chart-tip-marker"/g)).toHaveLength(1);
    expect(html).toContain("changed: β 0.05 → 0.5 · 2 runs");
    expect(html).not.toContain("ε 0.2");
    expect(html).not.toContain("lr 1e-3");
    expect(html).toContain("raw 0.03");
    expect(html).toContain("raw 0.00798");
  });

  it("shows no change line where nothing changed", () => {
    const html = renderToStaticMarkup(
      createElement(ChartTip, { x: 11, series, xLabel: "step", drawn: "raw", markers: markers.slice(0, 2) }),
    );
    expect(html).not.toContain("chart-tip-marker");
    expect(html).toContain(">0.5<"); // the value at step 11
  });

  it("lists only the lines that reach the hovered x (a run that stopped earlier is not given its last value)", () => {
    // On the samples axis PPO (16 completions a step) ends at 24 while GRPO (32) goes on to 48.
    const at = (runId: string, label: string, xs: number[], v: number): DrawnSeries => ({
      ...line(runId, label, v, v),
      points: xs.map((x, i) => ({ step: i + 1, x, raw: v, smooth: v, sx: x })),
    });
    const lines = [at("ppo-1", "PPO", [8, 16, 24], 0.351), at("grpo-1", "GRPO", [16, 32, 48], 0.42)];
    const tip = (x: number) =>
      renderToStaticMarkup(createElement(ChartTip, { x, series: lines, xLabel: "samples", drawn: "raw" }));
    expect(tip(48)).not.toContain("PPO");
    expect(tip(48)).toContain("GRPO");
    expect(tip(16)).toContain("PPO");
    expect(tip(8)).not.toContain("GRPO");
    expect(tip(24)).toContain("0.351");
    expect(tip(24)).toContain("0.42"); // GRPO spans 24: its nearest point is shown
  });

  it("names a change between two drawn points at the later one (a long run's thinned lines)", () => {
    // Drawn points at steps 8 and 12 only: the changes at 11 and 12 belong to the point at 12, none to 8.
    const thinned = series.map((s) => ({
      ...s,
      points: [
        { ...s.points[1], step: 8, x: 8 },
        { ...s.points[1], step: 12, x: 12 },
      ],
    }));
    const at = (x: number) =>
      renderToStaticMarkup(
        createElement(ChartTip, { x, series: thinned, xLabel: "step", drawn: "raw", markers }),
      );
    expect(at(12)).toContain("changed: ε 0.2 → 0.3 · GRPO");
    expect(at(12)).toContain("changed: β 0.05 → 0.5 · 2 runs");
    expect(at(8)).not.toContain("chart-tip-marker");
  });
});

describe("ChartTip with many lines", () => {
  it("lists at most TIP_ROWS lines and says how many more (12 runs' reward and gold: 24 lines)", () => {
    const many = Array.from({ length: 24 }, (_, i) => line(`r${i}`, `Run ${i}`, i, i));
    const html = renderToStaticMarkup(
      createElement(ChartTip, { x: 12, series: many, xLabel: "step", drawn: "raw" }),
    );
    expect(html.match(/<tr>/g)).toHaveLength(TIP_ROWS);
    expect(html).toContain("Run 12<");
    expect(html).not.toContain("Run 13<");
    expect(html).toContain("and 11 more lines");
    const fits = Array.from({ length: TIP_ROWS }, (_, i) => line(`r${i}`, `Run ${i}`, i, i));
    const all = renderToStaticMarkup(
      createElement(ChartTip, { x: 12, series: fits, xLabel: "step", drawn: "raw" }),
    );
    expect(all).not.toContain("more lines");
    expect(all.match(/<tr>/g)).toHaveLength(TIP_ROWS);
  });
});

describe("the hover dots", () => {
  it("mark each line the card names at the card's point, lines with x values of their own included", () => {
    // On a KL axis each line has its own x values: PPO's smoothed x 0.1…0.5, DPO's 0.12…0.52 (none shared).
    const at = (runId: string, sx: number[]): DrawnSeries => ({
      ...line(runId, runId.toUpperCase(), 0, 0),
      points: sx.map((x, i) => ({ step: i + 1, x: x * 2, raw: i, smooth: i / 2, sx: x })),
    });
    const lines = [at("ppo", [0.1, 0.3, 0.5]), at("dpo", [0.12, 0.32, 0.52]), at("grpo", [0.6, 0.7])];
    const dots = hoverDots(lines, 0.31, true);
    // The card's rows (nearest as drawn, lines that span x) and the dots agree; GRPO (0.6…1.4 with its raw
    // line) does not reach 0.31.
    expect(dots).toEqual([
      { key: "ppo-reward", x: 0.3, y: 0.5, colour: "red" },
      { key: "dpo-reward", x: 0.32, y: 0.5, colour: "red" },
    ]);
    const html = renderToStaticMarkup(
      createElement(ChartTip, { x: 0.31, series: lines, xLabel: "KL", drawn: "smooth" }),
    );
    expect(html.match(/step 2/g)).toHaveLength(2);
    expect(html).not.toContain("GRPO");
    // Raw values drawn (small charts): at raw x.
    expect(hoverDots(lines, 0.6, false).map((d) => [d.key, d.x, d.y])).toEqual([
      ["ppo-reward", 0.6, 1],
      ["dpo-reward", 0.64, 1],
    ]);
  });
});
