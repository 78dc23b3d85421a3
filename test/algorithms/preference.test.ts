/** Invariants of dpo.ts, reward_model.ts, kto.ts and orpo.ts: gradients vs finite differences, −∞ inputs. */
import { describe, expect, it } from "vitest";
import {
  type DpoLossType,
  type DpoOptions,
  dpoLossAndGrad,
  type PreferenceLogps,
} from "../../src/algorithms/math/dpo";
import { ktoLossAndGrad, ktoReferencePoint } from "../../src/algorithms/math/kto";
import { logSigmoid } from "../../src/algorithms/math/numerics";
import { logOdds, ORPO_LOGP_CEIL, orpoLossAndGrad } from "../../src/algorithms/math/orpo";
import { bradleyTerryLossAndGrad } from "../../src/algorithms/math/reward_model";
import { expectAllClose, expectClose, expectGradMatchesFd } from "./helpers";

const NEG_INF = Number.NEGATIVE_INFINITY;

const pairs: PreferenceLogps = {
  chosenLogps: [-12, -3.5, -20, -7],
  rejectedLogps: [-15.5, -3, -18, -9.25],
  refChosenLogps: [-13, -3.2, -19, -8],
  refRejectedLogps: [-14, -3.9, -18.5, -9],
  chosenLengths: [6, 2, 9, 4],
  rejectedLengths: [8, 3, 7, 5],
};

describe("DPO family", () => {
  const configs: [DpoLossType, DpoOptions][] = [
    ["sigmoid", {}],
    ["sigmoid", { labelSmoothing: 0.1, beta: 0.3 }],
    ["hinge", { beta: 0.5 }],
    ["ipo", {}],
    ["simpo", {}],
  ];
  for (const [lossType, extra] of configs)
    it(`${lossType} ${JSON.stringify(extra)}: gradients w.r.t. both sequence log-probs match finite differences`, () => {
      const opts = { lossType, ...extra };
      const out = dpoLossAndGrad(pairs, opts);
      expectGradMatchesFd(
        (x) => dpoLossAndGrad({ ...pairs, chosenLogps: x }, opts).loss,
        pairs.chosenLogps,
        out.dChosenLogps,
        "dChosen",
      );
      expectGradMatchesFd(
        (x) => dpoLossAndGrad({ ...pairs, rejectedLogps: x }, opts).loss,
        pairs.rejectedLogps,
        out.dRejectedLogps,
        "dRejected",
      );
      expect(Object.values(out.metrics).every(Number.isFinite)).toBe(true);
    });

  it("metrics: TRL's rewards/* and logps/* on the log-ratios the loss used", () => {
    const out = dpoLossAndGrad(pairs, { beta: 0.1 });
    const cw = [1, -0.3, -1, 1];
    const cl = [-1.5, 0.9, 0.5, -0.25];
    expectClose(out.metrics["rewards/chosen"], (0.1 * (1 - 0.3 - 1 + 1)) / 4);
    expectClose(out.metrics["rewards/margins"], (0.1 * cw.reduce((s, c, i) => s + c - cl[i], 0)) / 4);
    expect(out.metrics["rewards/accuracies"]).toBe(0.5);
    expectClose(out.metrics["logps/rejected"], (-15.5 - 3 - 18 - 9.25) / 4);
    const ipo = dpoLossAndGrad(pairs, { lossType: "ipo" });
    expectClose(ipo.metrics["logps/chosen"], (-12 / 6 - 3.5 / 2 - 20 / 9 - 7 / 4) / 4);
    expectAllClose(
      ipo.losses,
      [0, 1, 2, 3].map((b) => (cw[b] / [6, 2, 9, 4][b] - cl[b] / [8, 3, 7, 5][b] - 5) ** 2),
    );
  });

  it("accuracy counts a tie as wrong: at the first step (policy = reference) every pair scores 0, as TRL's", () => {
    const tie = dpoLossAndGrad({
      chosenLogps: [-3, -2],
      rejectedLogps: [-4, -6],
      refChosenLogps: [-3, -2],
      refRejectedLogps: [-4, -6],
    });
    expect(tie.metrics["rewards/accuracies"]).toBe(0);
    expect(tie.metrics["rewards/margins"]).toBe(0);
  });

  it("a −∞ rejected log-prob gives a finite loss and zero gradient where the loss is finite; else a clear error", () => {
    const one = (chosen: number, rejected: number): PreferenceLogps => ({
      chosenLogps: [chosen],
      rejectedLogps: [rejected],
      refChosenLogps: [-5],
      refRejectedLogps: [-5],
      chosenLengths: [3],
      rejectedLengths: [3],
    });
    for (const lossType of ["sigmoid", "hinge"] as const) {
      const out = dpoLossAndGrad(one(-4, NEG_INF), { lossType });
      expect(out.loss).toBe(0);
      expect(out.dChosenLogps[0] === 0 && out.dRejectedLogps[0] === 0).toBe(true);
    }
    expect(dpoLossAndGrad(one(-4, NEG_INF), { lossType: "simpo" }).loss).toBe(0);
    expect(() => dpoLossAndGrad(one(-4, NEG_INF), { lossType: "ipo" })).toThrow(
      /pair 0: ipo loss is infinite/,
    );
    expect(() => dpoLossAndGrad(one(-4, NEG_INF), { labelSmoothing: 0.1 })).toThrow(/infinite/);
    expect(() => dpoLossAndGrad(one(NEG_INF, -4))).toThrow(/pair 0: sigmoid loss is infinite/);
    expect(() => dpoLossAndGrad({ ...one(NEG_INF, -4), refChosenLogps: [NEG_INF] })).toThrow(/undefined/);
    expect(() => dpoLossAndGrad(one(Number.NaN, -4))).toThrow(/chosenLogps\[0\]/);
    // Large but finite margins stay finite (no overflow in log σ).
    expectClose(
      dpoLossAndGrad(one(-4, -1e6)).loss,
      -logSigmoid(0.1 * (1 + 1e6 - 5)),
      "large margin",
      1e-12,
      1e-300,
    );
    expectClose(dpoLossAndGrad(one(-1e6, -4)).loss, 0.1 * (1e6 - 5 + 1), "large negative margin");
  });

  it("rejects inputs the loss type needs but lacks, and bad options", () => {
    const { refChosenLogps: _a, ...noRef } = pairs;
    expect(() => dpoLossAndGrad(noRef)).toThrow(/needs refChosenLogps/);
    expect(dpoLossAndGrad(noRef, { lossType: "simpo" }).loss).toBeGreaterThan(0); // reference-free
    expect(() => dpoLossAndGrad({ ...pairs, chosenLengths: null }, { lossType: "ipo" })).toThrow(
      /chosenLengths/,
    );
    expect(() => dpoLossAndGrad(pairs, { lossType: "hinge", labelSmoothing: 0.1 })).toThrow(/sigmoid only/);
    expect(() => dpoLossAndGrad(pairs, { beta: 0 })).toThrow(/beta/);
  });
});

describe("reward model (Bradley–Terry)", () => {
  it("gradient with centring matches finite differences; accuracy counts ties as wrong", () => {
    const rw = [0.3, -1, 2, 1.5, 0];
    const rl = [0.1, 0.5, 2, -3, 0.2];
    for (const eta of [0, 0.01]) {
      const out = bradleyTerryLossAndGrad(rw, rl, eta);
      expectGradMatchesFd((x) => bradleyTerryLossAndGrad(x, rl, eta).loss, rw, out.dChosen, "dChosen");
      expectGradMatchesFd((x) => bradleyTerryLossAndGrad(rw, x, eta).loss, rl, out.dRejected, "dRejected");
      expect(out.metrics.accuracy).toBe(0.4);
    }
    expectClose(bradleyTerryLossAndGrad([1000], [-1000]).loss, 0, "saturated", 0, 1e-300);
    expectClose(bradleyTerryLossAndGrad([-1000], [1000]).loss, 2000);
    expect(() => bradleyTerryLossAndGrad([Number.NaN], [0])).toThrow(/rChosen\[0\]/);
  });
});

describe("KTO", () => {
  const logps = [-10, -12, -9, -4, -7];
  const ref = [-11, -11.5, -9.5, -4.2, -6];
  const desirable = [true, false, true, false, false];

  it("gradient matches finite differences (z_0 held constant); weights scale each side", () => {
    const opts = { beta: 0.5, desirableWeight: 1.5, undesirableWeight: 0.7 };
    const out = ktoLossAndGrad(logps, ref, desirable, 0.2, opts);
    expectGradMatchesFd(
      (x) => ktoLossAndGrad(x, ref, desirable, 0.2, opts).loss,
      logps,
      out.dLogps,
      "dLogps",
    );
    expectClose(out.metrics["rewards/chosen"] ?? Number.NaN, (0.5 * (1 + 0.5)) / 2);
    expect(
      ktoLossAndGrad(logps, ref, [false, false, false, false, false], 0).metrics["rewards/chosen"],
    ).toBeNull();
  });

  it("z_0 = max(0, mean r_θ over mismatched pairs)", () => {
    expectClose(ktoReferencePoint([-3, -5], [-4, -5.5]), 0.75);
    expect(ktoReferencePoint([-3, -5], [-2, -5])).toBe(0);
    expect(ktoReferencePoint([NEG_INF], [-2])).toBe(0);
    expect(() => ktoReferencePoint([NEG_INF], [NEG_INF])).toThrow(/reference point/);
  });

  it("a −∞ policy log-prob gives a finite loss and no gradient; −∞ − (−∞) throws", () => {
    const out = ktoLossAndGrad([NEG_INF, NEG_INF], [-3, -3], [true, false], 0.1);
    expectAllClose(out.losses, [1, 0]);
    expect(Array.from(out.dLogps).every((d) => d === 0)).toBe(true);
    expect(() => ktoLossAndGrad([NEG_INF], [NEG_INF], [true], 0)).toThrow(/undefined/);
  });
});

describe("ORPO", () => {
  it("gradient matches finite differences", () => {
    const chosen = [-0.8, -0.05, -2.5, -1e-3];
    const rejected = [-1.6, -0.02, -0.4, -3];
    const out = orpoLossAndGrad(chosen, rejected, 0.3);
    expectGradMatchesFd(
      (x) => orpoLossAndGrad(x, rejected, 0.3).loss,
      chosen,
      out.dChosenMeanLogps,
      "dChosen",
    );
    expectGradMatchesFd(
      (x) => orpoLossAndGrad(chosen, x, 0.3).loss,
      rejected,
      out.dRejectedMeanLogps,
      "dRejected",
    );
    expectClose(out.metrics.nll_loss, (0.8 + 0.05 + 2.5 + 1e-3) / 4);
  });

  it("near logP → 0 the log odds saturate (finite); −∞ rejected is finite; −∞ chosen and logP > 0 throw", () => {
    const cap = logOdds(ORPO_LOGP_CEIL).value;
    expectClose(cap, ORPO_LOGP_CEIL - Math.log(-Math.expm1(ORPO_LOGP_CEIL)));
    // Above the cap only the first term of logP − log(1 − P) moves (slope 1): continuous, finite, 13.8.
    expectClose(logOdds(0).value, cap - ORPO_LOGP_CEIL);
    expectClose(logOdds(1e-7).value, cap - ORPO_LOGP_CEIL + 1e-7); // float32 rounding above 0
    expect(logOdds(0).grad).toBe(1);
    expect(logOdds(-1e-3).value).toBeLessThan(cap);
    expect(logOdds(NEG_INF).value).toBe(NEG_INF);
    for (const [w, l] of [
      [0, -1],
      [-1, 0],
      [0, 0],
      [-1, NEG_INF],
    ]) {
      const out = orpoLossAndGrad([w], [l]);
      expect([out.loss, out.dChosenMeanLogps[0], out.dRejectedMeanLogps[0]].every(Number.isFinite)).toBe(
        true,
      );
    }
    expect(orpoLossAndGrad([-1], [NEG_INF]).dRejectedMeanLogps[0]).toBe(0);
    expect(() => orpoLossAndGrad([NEG_INF], [-1])).toThrow(/chosen mean log-prob is −∞/);
    expect(() => orpoLossAndGrad([0.01], [-1])).toThrow(/must be ≤ 1e-6/);
  });
});
