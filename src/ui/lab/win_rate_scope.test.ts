/**
 * The win-rate view's interval is over 64 test prompts of two checkpoints; "vs PPO β 0.2" read like a test between
 * two settings. The view now says beside it what the interval covers (WinRate.tsx WinRateResult).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RunWinRate } from "../../lab/protocol";
import { WinRateResult } from "./WinRate";

const LINE =
  "This interval covers the test prompts for these checkpoints only; another training seed can differ by more.";
const result = (ties: number): RunWinRate => ({
  runId: "a",
  step: 4,
  vs: "b",
  vsStep: 4,
  winRate: 0.6,
  ci95: [0.48, 0.72],
  n: 64,
  wins: 40 - ties,
  ties,
  losses: 24,
  goldRun: 0.3,
  goldStart: 0.2,
});
const shown = (r: RunWinRate) =>
  renderToStaticMarkup(createElement(WinRateResult, { runId: "a", result: r, vsLabel: "PPO β 0.2" }));

describe("the win-rate view's interval", () => {
  it("says beside it that it covers the test prompts for these checkpoints only", () => {
    const html = shown(result(0));
    expect(html).toContain("[48 %–72 %]");
    expect(html).toContain(" vs PPO β 0.2 at step 4");
    expect(html).toContain(LINE);
  });

  it("not where there is no interval (every prompt tied)", () => {
    const html = shown({ ...result(0), ties: 64, wins: 0, losses: 0 });
    expect(html).toContain("[no CI: all tied]");
    expect(html).not.toContain(LINE);
  });
});
