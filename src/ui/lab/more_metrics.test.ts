import { describe, expect, it } from "vitest";
import type { MetricPoint } from "../../lab/protocol";
import type { RunState } from "../lab_store";
import { MORE_METRICS } from "./metric_info";
import { miniLegendEntries } from "./mini_legend_entries";
import { markersFor, moreChartLines } from "./more_lines";

const point = (step: number, metrics: Record<string, number>): MetricPoint => ({
  step,
  samples: step,
  tokens: step,
  metrics,
});

const run = (id: string, history: MetricPoint[]) => ({
  run: {
    spec: { id, label: id, algo: "x", config: {} },
    status: "paused",
    step: history.length,
    history,
    markers: [],
    samples: [],
    error: null,
  } as unknown as RunState,
  colour: `colour-${id}`,
});

describe("the diagnostics charts", () => {
  const info = (key: string) => {
    const m = MORE_METRICS.find((x) => x.key === key);
    if (!m) throw new Error(`no chart for ${key}`);
    return m;
  };

  it("chart Safe RLHF's cost against its limit d (dashed, same colour) and λ against λ_I", () => {
    const safe = run("safe", [point(1, { "safe/cost": 58, "safe/cost_limit": 48, "safe/lambda": 0 })]);
    const ppo = run("ppo", [point(1, { "objective/kl": 0.1 })]);
    const cost = moreChartLines(info("safe/cost"), [safe, ppo]);
    expect(cost.map((l) => [l.runId, l.metric, l.dashed ?? false, l.name ?? "", l.colour])).toEqual([
      ["safe", "safe/cost", false, "", "colour-safe"],
      ["safe", "safe/cost_limit", true, "d", "colour-safe"],
    ]);
    // λ with its integral part λ_I dashed; a run saved before λ_I was logged draws λ alone.
    const withIntegral = run("safe-p", [
      point(1, { "safe/cost": 58, "safe/lambda": 0.3, "safe/lambda_integral": 0.2 }),
    ]);
    const lambda = moreChartLines(info("safe/lambda"), [safe, withIntegral, ppo]);
    expect(lambda.map((l) => [l.runId, l.metric, l.dashed ?? false, l.name ?? ""])).toEqual([
      ["safe", "safe/lambda", false, ""],
      ["safe-p", "safe/lambda", false, ""],
      ["safe-p", "safe/lambda_integral", true, "λ_I"],
    ]);
  });

  it("draw one line per reporting run for a metric without a companion", () => {
    const a = run("a", [point(1, { grad_norm: 1 })]);
    const b = run("b", [point(1, { grad_norm: 2 })]);
    const c = run("c", [point(1, { entropy: 2 })]);
    expect(moreChartLines(info("grad_norm"), [a, b, c]).map((l) => l.runId)).toEqual(["a", "b"]);
  });

  it("each chart's legend names the runs it draws, once each, in their colours", () => {
    const safe = run("safe", [point(1, { "safe/cost": 58, "safe/cost_limit": 48, grad_norm: 1 })]);
    const dpo = run("dpo", [point(1, { "rewards/margins": 0.2, grad_norm: 2 })]);
    const ppo = run("ppo", [point(1, { "policy/clipfrac_avg": 0.1, grad_norm: 3 })]);
    const entries = (key: string) =>
      miniLegendEntries(moreChartLines(info(key), [safe, dpo, ppo])).map((e) => [e.runId, e.colour]);
    // The cost chart has two lines of one run (cost and its limit d): one entry.
    expect(entries("safe/cost")).toEqual([["safe", "colour-safe"]]);
    expect(entries("rewards/margins")).toEqual([["dpo", "colour-dpo"]]);
    expect(entries("grad_norm")).toEqual([
      ["safe", "colour-safe"],
      ["dpo", "colour-dpo"],
      ["ppo", "colour-ppo"],
    ]);
  });

  it("a chart shows the settings markers of the runs it draws only", () => {
    const dpo = run("dpo", [point(1, { "rewards/margins": 0.2, grad_norm: 2 })]);
    const ppo = run("ppo", [point(1, { "policy/clipfrac_avg": 0.1, grad_norm: 3 })]);
    const marker = (runId: string) => ({
      runId,
      runLabel: runId,
      colour: `colour-${runId}`,
      markers: [{ runId, step: 1, label: "β 0.05 → 0.2" }],
      history: [],
    });
    const markers = [marker("ppo"), marker("dpo")];
    const runsOf = (key: string) =>
      markersFor(moreChartLines(info(key), [dpo, ppo]), markers).map((m) => m.runId);
    expect(runsOf("rewards/margins")).toEqual(["dpo"]);
    expect(runsOf("policy/clipfrac_avg")).toEqual(["ppo"]);
    expect(runsOf("grad_norm")).toEqual(["ppo", "dpo"]);
    // A hidden run is not among the visible runs: none of its markers anywhere.
    expect(markersFor(moreChartLines(info("grad_norm"), [dpo]), markers).map((m) => m.runId)).toEqual([
      "dpo",
    ]);
  });
});
