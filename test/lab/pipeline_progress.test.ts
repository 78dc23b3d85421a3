/**
 * The Pipeline's steps reach its store in batches (src/ui/lab/pipeline_actions.ts PROGRESS_MS): a tiny model on
 * a GPU reports ~100 steps a second, and a store update per step would redraw the stage's chart as often. Every
 * step still arrives, in order, and the last ones before the stage ends.
 */
import { describe, expect, it, vi } from "vitest";
import type { PipelineProgress, PipelineStageResult } from "../../src/lab/pipeline/fields";
import { labActions } from "../../src/ui/lab/actions";
import { PROGRESS_MS, pipelineActions } from "../../src/ui/lab/pipeline_actions";
import { usePipelineStore } from "../../src/ui/lab/pipeline_store";
import { stubPage } from "./session_page";

stubPage(() => {});

describe("Pipeline progress", () => {
  it("hands the worker's steps to the store a few times a second, every step in order", async () => {
    const steps = 120;
    const result: PipelineStageResult = {
      stage: "rm",
      steps,
      planned: steps,
      firstLoss: 0.7,
      lastLoss: 0.6,
      seconds: 1,
    };
    vi.spyOn(labActions, "pipelineStage").mockImplementation(async (_stage, _s, onProgress) => {
      for (let step = 1; step <= steps; step++) {
        const p: PipelineProgress = { stage: "rm", step, steps, loss: 0.7 - step / 1000, gradNorm: 1 };
        if (step % 40 === 0) p.eval = { step, pairs: 8, labelAccuracy: 0.5, goldAccuracy: 0.5 };
        onProgress?.(p);
        await new Promise((r) => setTimeout(r, 5)); // ~200 steps a second
      }
      return result;
    });
    const progress = vi.spyOn(usePipelineStore.getState(), "progress");
    usePipelineStore.setState({ progress });
    await pipelineActions.train("rm");
    const st = usePipelineStore.getState().rm;
    expect(st.status).toBe("done");
    expect(st.points.map((p) => p.step)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
    expect(st.evals.map((e) => e.step)).toEqual([40, 80, 120]);
    // 120 steps over ≥ 600 ms: about one batch per PROGRESS_MS, far fewer than one per step.
    console.log(
      `${steps} steps reached the store in ${progress.mock.calls.length} updates (${PROGRESS_MS} ms apart)`,
    );
    expect(progress.mock.calls.length).toBeGreaterThan(1);
    expect(progress.mock.calls.length).toBeLessThan(steps / 5);
  });
});
