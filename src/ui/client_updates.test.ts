/** The page's side of the worker's updates (client_updates.ts): Play stops when the worker says it stopped. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunUpdate } from "../lab/protocol";
import { updateReceiver } from "./client_updates";
import { useLab } from "./lab_store";

describe("updateReceiver", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows Play again when an update says the worker stopped (a run's step lost the GPU twice), not before", () => {
    vi.stubGlobal("requestAnimationFrame", (f: () => void) => setTimeout(f, 0));
    const receive = updateReceiver(() => true, { updates: 0, firstUpdateAt: null, lastUpdateAt: null }) as (
      u: RunUpdate[],
    ) => Promise<void>;
    useLab.getState().setPlaying(true);
    const id = useLab.getState().spec.runs[0]?.id ?? "ppo-1";
    void receive([{ runId: id, status: "running", step: 1, points: [] }]);
    expect(useLab.getState().playing).toBe(true);
    void receive([{ runId: id, status: "paused", step: 1, points: [], notice: "lost again", stopped: true }]);
    expect(useLab.getState().playing).toBe(false);
  });
});
