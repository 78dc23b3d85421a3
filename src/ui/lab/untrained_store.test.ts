import { beforeEach, describe, expect, it } from "vitest";
import { defaultExperiment } from "../../lab/defaults";
import { runConfig } from "../../lab/export/config";
import { trlScript } from "../../lab/export/trl_script";
import type { MetricPoint } from "../../lab/protocol";
import { useLab } from "../lab_store";

const point = (step: number): MetricPoint => ({ step, samples: 8, tokens: 80, metrics: {} });
const land = (step: number) =>
  useLab.getState().applyUpdates([{ runId: "ppo-1", status: "paused", step, points: [point(step)] }]);

describe("settings changed after a run's last step", () => {
  beforeEach(() => {
    useLab.getState().setSpec(defaultExperiment());
  });

  it("are tracked from the first step on, undone changes drop out, and a landing step clears them", () => {
    const lab = useLab.getState();
    lab.setRunConfig("ppo-1", { beta: 0.2 }); // step 0: nothing trained yet
    expect(useLab.getState().runs["ppo-1"].untrained).toBeUndefined();
    land(1);
    lab.setRunConfig("ppo-1", { beta: 0.1 });
    lab.setRunConfig("ppo-1", { beta: 0.3, ppoEpochs: 2 });
    expect(useLab.getState().runs["ppo-1"].untrained).toEqual({ beta: 0.2, ppoEpochs: null });
    lab.setRunConfig("ppo-1", { beta: 0.2 }); // back to what step 1 used
    expect(useLab.getState().runs["ppo-1"].untrained).toEqual({ ppoEpochs: null });
    land(2);
    expect(useLab.getState().runs["ppo-1"].untrained).toBeUndefined();
  });

  it("are named in the config JSON and the TRL script, defaults resolved", () => {
    const lab = useLab.getState();
    land(3);
    lab.setRunConfig("ppo-1", { beta: 0.1, ppoEpochs: 2 });
    const r = useLab.getState().runs["ppo-1"];
    const experiment = { task: "sentiment" as const, model: "sft" as const, seed: 0 };
    expect(runConfig(experiment, r.spec, null, r.untrained).untrained).toEqual({
      beta: { trained: 0.05, next: 0.1 },
      ppoEpochs: { trained: 4, next: 2 },
    });
    const py = trlScript(experiment, { spec: r.spec, step: r.step, untrained: r.untrained });
    expect(py).toContain(
      "Changed after step 3, so none of the lab's steps trained with it yet: β 0.05 → 0.1, epochs 4 → 2.",
    );
    expect(runConfig(experiment, r.spec).untrained).toBeUndefined();
  });
});
