/**
 * "Repeat on other seeds" as the run card's button runs it (src/ui/lab/actions.ts repeatOnSeeds): the source is
 * given the seed it trains on as its own (so Change… keeps it apart from its copies), and a second Repeat pressed
 * while the first one's copies are being added counts each copy once against the 12-run limit (they are both
 * pending and in the lab's spec then).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import type { RunSpec } from "../../src/lab/protocol";
import { labClient } from "../../src/ui/client";
import { labActions } from "../../src/ui/lab/actions";
import { useLab } from "../../src/ui/lab_store";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("Repeat on other seeds (the action)", () => {
  it("gives the source its seed, and counts a copy being added once", async () => {
    vi.stubGlobal("location", { search: "", hash: "", href: "http://lab.test/" });
    const spec = defaultExperiment();
    // 3 default runs + 6 more: 9 runs, room for 3.
    const more: RunSpec[] = Array.from({ length: 6 }, (_, i) => ({
      ...spec.runs[1],
      id: `dpo-${i + 2}`,
      label: `DPO ${i + 2}`,
      config: { ...spec.runs[1].config, beta: 0.2 + i / 10 },
    }));
    useLab.getState().setSpec({ ...spec, seed: 4, runs: [...spec.runs, ...more] });
    // The client puts a run in the store at once and the worker answers later.
    vi.spyOn(labClient, "addRun").mockImplementation(async (s) => {
      useLab.getState().upsertRun(s);
      await new Promise((r) => setTimeout(r, 30));
    });
    const ppo = spec.runs[0];
    const first = labActions.repeatOnSeeds(ppo.id);
    await new Promise((r) => setTimeout(r, 5)); // its first copy is in the store and still pending
    const second = labActions.repeatOnSeeds(spec.runs[2].id);
    await Promise.all([first, second]);
    const runs = useLab.getState().spec.runs;
    expect(runs.find((r) => r.id === ppo.id)?.seed).toBe(4);
    // 12 runs: PPO's 2 copies and 1 of GRPO's (before: GRPO's copies were refused at "13 runs").
    expect(
      runs
        .map((r) => r.label)
        .slice(9)
        .sort(),
    ).toEqual(["GRPO seed 5", "PPO seed 5", "PPO seed 6"]);
    expect(useLab.getState().notice).toMatch(/^Only 1 of 2 copies of GRPO could be added/);
  });
});
