/**
 * Stop at and Speed changed while the training worker starts (a lesson's "Free play" pressed while it loads):
 * the store keeps them and the client sends them once the worker is up. Sent at once, they reached a worker with
 * no scheduler ("the training worker is not initialised", an uncaught rejection) and init then applied the
 * lesson's own step limit: the lab stopped at it after "Free play".
 */
import { describe, expect, it, vi } from "vitest";
import type { ExperimentSpec } from "../../src/lab/protocol";
import type { StartStage } from "../../src/lab/start_progress";
import { useStarting } from "../../src/ui/lab/starting";
import { useLab } from "../../src/ui/lab_store";

const sent: string[] = [];
let up = false;
let started: () => void = () => {};
let onStage: ((s: StartStage) => void) | undefined;
const notUp = () => {
  throw new Error("the training worker is not initialised (init() first)");
};

vi.mock("../../src/ui/client_worker", async (original) => {
  const { releaseProxy } = await import("comlink");
  return {
    ...(await original<typeof import("../../src/ui/client_worker")>()),
    spawnTrainingWorker: () => ({
      worker: { terminate() {}, addEventListener() {}, removeEventListener() {} },
      died: new Promise(() => {}),
      api: {
        init: (_s: unknown, _u: unknown, _b: unknown, _p: unknown, stage?: (s: StartStage) => void) =>
          new Promise((resolve) => {
            onStage = stage;
            started = () => {
              up = true;
              resolve({ adapter: "test", model: "nano", vocabSize: 16, notices: [], preferences: null });
            };
          }),
        setStopAt: async (n: number) => (up ? void sent.push(`stop ${n}`) : notUp()),
        setSpeed: async (n: number) => (up ? void sent.push(`speed ${n}`) : notUp()),
        [releaseProxy]() {},
      },
    }),
  };
});

const lesson: ExperimentSpec = {
  task: "arithmetic",
  model: "nano",
  seed: 0,
  runs: [{ id: "grpo-1", algo: "grpo", label: "GRPO", config: {} }],
  steps: 16,
  preset: "kl-estimators",
};

describe("settings changed while the worker starts", () => {
  it("wait in the store and go to the worker once it is up", async () => {
    // The page's document, for the models' base URL.
    vi.stubGlobal("document", { baseURI: "http://localhost/" });
    const { LabClient } = await import("../../src/ui/client");
    const client = new LabClient();
    const opening = client.start(lesson);
    expect(useLab.getState().phase).toBe("loading");
    // "Free play" while loading: no step limit; and a speed.
    client.setStopAt(0);
    client.setSpeed(2);
    expect(sent).toEqual([]);
    expect(useLab.getState().spec.steps ?? 0).toBe(0);
    started();
    await opening;
    expect(useLab.getState().phase).toBe("ready");
    expect(sent).toEqual(["speed 2", "stop 0"]);
    // Ready: sent at once.
    client.setStopAt(5);
    expect(sent.at(-1)).toBe("stop 5");
  });
});

describe("the loading line", () => {
  it("hears the worker's stages, and a replaced start's no more", async () => {
    vi.stubGlobal("document", { baseURI: "http://localhost/" });
    const { LabClient } = await import("../../src/ui/client");
    const client = new LabClient();
    const first = client.start(lesson);
    expect(useStarting.getState().stage).toBeNull();
    const stage = onStage;
    stage?.({ stage: "download", path: "models/arithmetic/tokenizer.json", loaded: 512, total: 2048 });
    expect(useStarting.getState().stage).toEqual({
      stage: "download",
      path: "models/arithmetic/tokenizer.json",
      loaded: 512,
      total: 2048,
    });
    // Another experiment opened meanwhile: the old worker's late reports are not shown.
    const second = client.start(lesson);
    expect(useStarting.getState().stage).toBeNull();
    stage?.({ stage: "runs" });
    expect(useStarting.getState().stage).toBeNull();
    onStage?.({ stage: "kernels" });
    expect(useStarting.getState().stage).toEqual({ stage: "kernels" });
    started();
    await second;
    void first;
  });
});
