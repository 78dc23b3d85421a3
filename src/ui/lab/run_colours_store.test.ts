import { beforeEach, describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { useLab } from "../lab_store";
import { colourMap, resetColours } from "./palette";

const spec = (id: string): RunSpec => ({ id, algo: "grpo", label: id.toUpperCase(), config: {} });

describe("run colours in the lab store", () => {
  beforeEach(() => {
    resetColours();
    useLab
      .getState()
      .setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: ["a", "b", "c"].map(spec) });
  });

  it("removing a run records the others' colours, so a reload (a fresh palette) paints them the same", () => {
    const before = colourMap(useLab.getState().spec.runs);
    expect(before).toEqual({ a: "var(--run-0)", b: "var(--run-1)", c: "var(--run-2)" });
    useLab.getState().removeRun("b");
    const s = useLab.getState();
    expect(s.spec.runs.map((r) => [r.id, r.colour])).toEqual([
      ["a", 0],
      ["c", 2],
    ]);
    expect(s.runs.c.spec).toBe(s.spec.runs[1]);
    resetColours(); // a reload: the page's memory of colours is gone, the saved spec is not
    expect(colourMap(s.spec.runs)).toEqual({ a: "var(--run-0)", c: "var(--run-2)" });
  });
});
