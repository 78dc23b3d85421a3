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

describe("Duplicate right after a setting change", () => {
  it("copies the setting the card shows, not the one the run had before the change reached the worker", async () => {
    vi.stubGlobal("location", { search: "", hash: "", href: "http://lab.test/" });
    const spec = defaultExperiment();
    useLab.getState().setSpec(spec);
    const grpo = spec.runs.find((r) => r.algo === "grpo") as RunSpec;
    // The worker answers a setting change only between steps: here 50 ms later, as a step finishing would.
    vi.spyOn(labClient, "setConfig").mockImplementation(async (id, patch) => {
      await new Promise((r) => setTimeout(r, 50));
      useLab.getState().setRunConfig(id, patch);
    });
    const forked: RunSpec[] = [];
    vi.spyOn(labClient, "forkRun").mockImplementation(async (_id, s) => {
      forked.push(s);
    });
    const change = labActions.setConfig(grpo.id, { beta: 0.5 });
    const dup = labActions.forkRun(grpo.id); // pressed before the change was answered
    await Promise.all([change, dup]);
    expect(forked).toHaveLength(1);
    expect(forked[0].config.beta).toBe(0.5);
    expect(forked[0].id).not.toBe(grpo.id);

    // A change the worker refuses: the copy has the settings the run kept, and is still made.
    vi.spyOn(labClient, "setConfig").mockRejectedValueOnce(new RangeError("β must be ≥ 0"));
    const bad = labActions.setConfig(grpo.id, { beta: -1 });
    const dup2 = labActions.forkRun(grpo.id);
    await expect(bad).rejects.toThrow(/β must be/);
    await dup2;
    expect(forked.map((s) => s.config.beta)).toEqual([0.5, 0.5]);
  });
});
