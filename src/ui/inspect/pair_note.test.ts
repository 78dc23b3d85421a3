/**
 * The pair table's loss note names each loss as the rest of the lab does: the hinge is SLiC's on the reference
 * log-ratio, RSO's and TRL's `loss_type="hinge"` form (the loss-type knob's doc, src/algorithms/dpo.ts; the
 * explain panel's Hinge note), not SLiC's own reference-free hinge.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PairsInspect } from "../../lab/inspect/types";
import { ALGORITHMS } from "../../lab/registry";
import { PairTable } from "./PairTable";

const view = (lossType: PairsInspect["lossType"]): PairsInspect => ({
  kind: "pairs",
  step: 3,
  algo: "dpo",
  lossType,
  beta: 0.1,
  labelSmoothing: 0,
  simpoGamma: 0,
  pairs: [],
  totalPairs: 0,
});
const note = (lossType: PairsInspect["lossType"]) =>
  renderToStaticMarkup(createElement(PairTable, { view: view(lossType) })).replace(/&#x27;/g, "'");

describe("PairTable's loss note", () => {
  it("credits the hinge as the loss-type knob does: SLiC's, on the reference log-ratio as in RSO and TRL", () => {
    const knob = ALGORITHMS.dpo.fields.find((f) => f.key === "lossType");
    const credit = knob?.doc.match(/hinge (\([^)]*\))/)?.[1];
    expect(credit).toBe("(SLiC's, on the reference log-ratio as in RSO and TRL)");
    const html = note("hinge");
    expect(html).toContain(`Hinge ${credit}, β = 0.1.`);
    expect(html).not.toContain("SLiC (hinge)");
  });
});
