/** The page's side of the worker's updates (client_updates.ts): Play stops when the worker says it stopped. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunUpdate } from "../lab/protocol";
import { type ClientStats, updateReceiver, withoutWorkerNotice } from "./client_updates";
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

  it("puts the worker's notice beside the page's own, in place of the worker's last, and Reset drops it", () => {
    vi.stubGlobal("requestAnimationFrame", (f: () => void) => setTimeout(f, 0));
    const stats: ClientStats = { updates: 0, firstUpdateAt: null, lastUpdateAt: null };
    const receive = updateReceiver(() => true, stats) as (u: RunUpdate[]) => Promise<void>;
    const id = useLab.getState().spec.runs[0]?.id ?? "ppo-1";
    const from = (notice: string): RunUpdate[] => [
      { runId: id, status: "paused", step: 5, points: [], notice },
    ];
    // An export failed as the device went: the recovery's notice must not hide it.
    useLab.getState().setNotice("Exporting PPO failed: the GPU device was lost.");
    void receive(from("The GPU device was lost and has been re-acquired."));
    expect(useLab.getState().notice).toBe(
      "Exporting PPO failed: the GPU device was lost. The GPU device was lost and has been re-acquired.",
    );
    // A later loss's notice replaces the first recovery's, not the export's.
    void receive(from("The GPU device was lost again; paused."));
    expect(useLab.getState().notice).toBe(
      "Exporting PPO failed: the GPU device was lost. The GPU device was lost again; paused.",
    );
    // Reset (client.ts): the runs are at step 0, so where they went on no longer holds.
    expect(withoutWorkerNotice(useLab.getState().notice, stats)).toBe(
      "Exporting PPO failed: the GPU device was lost.",
    );
    expect(withoutWorkerNotice("Something else.", stats)).toBe("Something else.");
    useLab.getState().setNotice(null);
  });

  it("a run added while the others recover reads 'recovering' too, until the worker says otherwise", () => {
    vi.stubGlobal("requestAnimationFrame", (f: () => void) => setTimeout(f, 0));
    const receive = updateReceiver(() => true, { updates: 0, firstUpdateAt: null, lastUpdateAt: null }) as (
      u: RunUpdate[],
    ) => Promise<void>;
    const s = useLab.getState();
    s.upsertRun({ id: "a", algo: "ppo", label: "A", config: {} });
    void receive([{ runId: "a", status: "recovering", step: 3, points: [] }]);
    s.upsertRun({ id: "b", algo: "ppo", label: "B", config: {} });
    expect(useLab.getState().runs.b.status).toBe("recovering");
    void receive([{ runId: "b", status: "ready", step: 0, points: [] }]);
    expect(useLab.getState().runs.b.status).toBe("ready");
    s.removeRun("a");
    s.removeRun("b");
  });
});
