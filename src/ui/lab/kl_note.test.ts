import { describe, expect, it } from "vitest";
import { LESSONS } from "../../lab/presets";
import type { ChartLine } from "./chart_types";
import { belowZero, bonKlNote, K1_KEY, k1Note, klAxisNote } from "./kl_note";

const line = (values: number[], from = 0): ChartLine => ({
  runId: "r",
  runLabel: "R",
  colour: "#000",
  metric: K1_KEY,
  from,
  history: values.map((v, i) => ({ step: i + 1, samples: 0, tokens: 0, metrics: { [K1_KEY]: v } })),
});

describe("the KL chart's k1 note", () => {
  it("counts the drawn points below 0 over every line", () => {
    const b = belowZero([line([0.2, -0.1, 0.05]), line([-0.3, Number.NaN, 0.4])], K1_KEY);
    expect(b).toEqual({ negative: 2, total: 5 });
    expect(k1Note(b)).toBe("2/5 batches < 0");
  });

  it("leaves out a fork's steps up to its branch point (its source's points) and metrics it lacks", () => {
    expect(belowZero([line([-1, -1, 0.3, -0.2], 2)], K1_KEY)).toEqual({ negative: 1, total: 2 });
    expect(belowZero([line([-1, 2])], "objective/kl_k3")).toEqual({ negative: 0, total: 0 });
  });

  it("says nothing while no value is below 0", () => {
    expect(k1Note(belowZero([line([0, 0.1])], K1_KEY))).toBeNull();
    expect(k1Note({ negative: 1, total: 1 })).toBe("1/1 batch < 0");
  });
});

describe("the KL chart's note on a KL x-axis", () => {
  it("says the chart plots the KL against itself only on the KL axes", () => {
    expect(klAxisNote("kl")).toBe("x is this KL");
    expect(klAxisNote("sqrt_kl")).toBe("x is this KL");
    for (const a of ["step", "samples", "tokens"]) expect(klAxisNote(a)).toBeNull();
  });
});

describe("best-of-n under the exact KL", () => {
  it("the KL chart says best-of-n has none; no lesson with best-of-n runs charts the exact KL", () => {
    expect(bonKlNote("objective/kl_exact", ["grpo", "bon"])).toBe(
      "best-of-n: no exact KL (estimate shown on the k-estimator charts)",
    );
    expect(bonKlNote("objective/kl_k3", ["bon"])).toBeNull();
    expect(bonKlNote("objective/kl_exact", ["grpo"])).toBeNull();
    // Before: bon-vs-rl drew best-of-n's estimate on the "exact" axis.
    for (const l of Object.values(LESSONS))
      if (l.experiment().runs.some((r) => r.algo === "bon"))
        expect(l.view?.klEstimator, l.id).not.toBe("objective/kl_exact");
  });
});
