import { describe, expect, it } from "vitest";
import { savedKey } from "./pipeline_saver";
import { pipelineViewState, usePipelineStore } from "./pipeline_store";

describe("Pipeline store: a hand-off grows old when a stage trains again", () => {
  it("marks it on a new stage 1 or 2, clears it on the next hand-off, and saves the mark", () => {
    const p = () => usePipelineStore.getState();
    p().clear();
    p().begin("sft");
    expect(p().handOffOld).toBe(false); // nothing handed over yet
    p().setHandedOff("Pipeline's SFT model (nano, 40 steps)");
    expect(p().handOffOld).toBe(false);
    p().begin("sft");
    expect(p().handOffOld).toBe(true);
    expect(p().rm.status).toBe("idle"); // stage 2 is stale, the runs still use the reward model handed over
    expect(p().handedOff).toBe("Pipeline's SFT model (nano, 40 steps)");
    expect(pipelineViewState(p()).handOffOld).toBe(true);
    p().setHandedOff("Pipeline's SFT model (nano, 80 steps)");
    expect(p().handOffOld).toBe(false);
    p().begin("rm");
    expect(p().handOffOld).toBe(true);
    // A view saved by an older page has no mark: restored as not old.
    const { handOffOld: _, ...older } = pipelineViewState(p());
    p().restore(older);
    expect(p().handOffOld).toBe(false);
    p().clear();
    expect(p().handOffOld).toBe(false);
  });

  it("a second hand-off under the same description changes what the saver saves", () => {
    const p = () => usePipelineStore.getState();
    p().clear();
    p().setHandedOff("Pipeline's SFT model (nano, 40 steps)");
    p().begin("rm");
    const old = savedKey(p());
    p().setHandedOff("Pipeline's SFT model (nano, 40 steps)");
    expect(savedKey(p())).not.toBe(old);
    expect(p().handOffOld).toBe(false);
  });
});
