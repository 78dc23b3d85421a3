import { beforeEach, describe, expect, it } from "vitest";
import type { RunSpec, RunWinRate } from "../../lab/protocol";
import { useLab } from "../lab_store";

const spec = (id: string): RunSpec => ({ id, algo: "grpo", label: id.toUpperCase(), config: {} });
const result = (runId: string, vs: string | null): RunWinRate => ({
  runId,
  step: 1,
  vs,
  vsStep: vs ? 1 : 0,
  winRate: 0.6,
  ci95: [0.5, 0.7],
  n: 64,
  wins: 40,
  ties: 0,
  losses: 24,
  goldRun: 0.1,
  goldStart: 0,
});

describe("win-rate results in the lab store", () => {
  beforeEach(() => {
    useLab
      .getState()
      .setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: ["a", "b", "c"].map(spec) });
    const { setWinRate } = useLab.getState();
    setWinRate("a", { status: "done", result: result("a", null) });
    setWinRate("b", { status: "done", result: result("b", "a") });
    setWinRate("c", { status: "done", result: result("c", "b") });
  });

  it("removing a run drops its result and every result measured against it", () => {
    useLab.getState().removeRun("a");
    expect(Object.keys(useLab.getState().winRates).sort()).toEqual(["c"]);
  });

  it("a reset or another experiment drops them all (their steps no longer exist)", () => {
    useLab.getState().clearProgress();
    expect(useLab.getState().winRates).toEqual({});
    useLab.getState().setWinRate("a", { status: "done", result: result("a", null) });
    useLab.getState().setSpec({ task: "arithmetic", model: "nano", seed: 1, runs: [spec("a")] });
    expect(useLab.getState().winRates).toEqual({});
  });
});
