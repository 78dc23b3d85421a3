/**
 * "Try again" (a reload) is not offered for an error of the browser's, such as WebGPU given to the page but not
 * to Web Workers: a reload gives the same answer. The worker marks such errors where it throws them; the mark
 * (the error's name) survives Comlink, which rebuilds a thrown error as a plain Error with its name and message.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { GpuUnavailableError } from "../../gpu/errors";
import { BrowserSupportError, reloadMayHelp, workerGpuError } from "../../lab/browser_error";
import { labClient } from "../client";
import { useLab } from "../lab_store";
import { labActions } from "./actions";

/** A thrown error as it arrives from the worker (comlink's throw handler). */
const viaComlink = (e: Error) => Object.assign(new Error(e.message), { name: e.name, message: e.message });

describe("an error of the browser's", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is marked at its source and keeps the mark across the worker boundary", () => {
    const noWorkerGpu = new BrowserSupportError(
      "This browser gives WebGPU to the page but not to Web Workers",
    );
    expect(reloadMayHelp(viaComlink(noWorkerGpu))).toBe(false);
    expect(reloadMayHelp(viaComlink(workerGpuError(new GpuUnavailableError("no-webgpu", "no WebGPU"))))).toBe(
      false,
    );
    // A device that did not answer this time may answer after a reload.
    const timeout = workerGpuError(new Error("WebGPU did not answer"));
    expect(timeout.message).toBe("The training worker could not get a GPU device: WebGPU did not answer");
    expect(reloadMayHelp(viaComlink(timeout))).toBe(true);
  });

  it("leaves the lab's error without 'Try again'; any other keeps it", async () => {
    vi.stubGlobal("location", { search: "" });
    const spec = useLab.getState().spec;
    const start = vi.spyOn(labClient, "start");
    start.mockRejectedValueOnce(viaComlink(new BrowserSupportError("Use Chrome or Edge 113 or newer.")));
    await labActions.start(spec);
    expect(useLab.getState()).toMatchObject({
      phase: "error",
      phaseError: "Use Chrome or Edge 113 or newer.",
      phaseReloadHelps: false,
    });
    start.mockRejectedValueOnce(new Error("the model files could not be fetched"));
    await labActions.start(spec);
    expect(useLab.getState()).toMatchObject({ phase: "error", phaseReloadHelps: true });
  });
});
