/**
 * The chart's hover card (ChartParts.tsx ChartTip, server-rendered): each line's value at the hovered x, and the
 * settings changes made there, named once (a small chart draws no marker labels; a crowded one drops some).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChartTip } from "./ChartParts";
import type { DrawnSeries } from "./chart_types";

const line = (runId: string, runLabel: string, raw: number, smooth: number): DrawnSeries => ({
  id: `${runId}-reward`,
  key: runId,
  line: { runId, runLabel, colour: "red", metric: "reward", history: [] },
  points: [{ step: 12, x: 12, raw, smooth }],
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
      createElement(ChartTip, { x: 10, series, xLabel: "step", drawn: "raw" }),
    );
    expect(html).not.toContain("chart-tip-marker");
    expect(html).toContain("0.03");
  });
});
