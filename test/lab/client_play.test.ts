/**
 * LabClient.play at the stop step ("Stop at"): refused with a notice while every run is there; once the user
 * raises or clears it, Play trains on and that notice goes (it no longer holds); so does the Pipeline hand-off's
 * "Press Play to train" once Play or Step trains.
 */
import { describe, expect, it } from "vitest";
import { HANDED_OFF_LINE, LabClient } from "../../src/lab/client";
import type { LabWorkerApi, RunSpec } from "../../src/lab/protocol";
import { useLab } from "../../src/ui/lab_store";

const run: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };

describe("Play at the stop step", () => {
  it("is refused with a notice, which goes once the lab trains on", () => {
    let plays = 0;
    const api = { play: async () => void plays++ } as unknown as LabWorkerApi;
    const client = new LabClient();
    (client as unknown as { api: LabWorkerApi }).api = api;
    const s = useLab.getState();
    s.setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [run], steps: 4 });
    s.restoreRuns([
      { spec: run, status: "paused", step: 4, history: [], markers: [], samples: [], error: null },
    ]);
    s.setPhase("ready");
    client.play();
    expect(plays).toBe(0);
    expect(useLab.getState().notice).toMatch(/^Every run has reached the stop step \(4\)/);
    useLab.getState().setSpec({ ...useLab.getState().spec, steps: undefined });
    client.play();
    expect(plays).toBe(1);
    expect(useLab.getState().notice).toBeNull();
    // Lines added after that sentence stay (another tab took over, say).
    useLab
      .getState()
      .setNotice(
        "Every run has reached the stop step (4): raise “Stop at” or clear it to train on. Another tab opened the lab.",
      );
    client.play();
    expect(useLab.getState().notice).toBe("Another tab opened the lab.");
    // The Pipeline's hand-off asks for Play: its sentence goes once Play or Step trains, what follows stays.
    const kept =
      " The runs' earlier training (PPO at step 4) is kept: reopen it from Change… → Recent experiments.";
    useLab.getState().setNotice(`${HANDED_OFF_LINE}${kept}`);
    client.play();
    expect(useLab.getState().notice).toBe(kept.trim());
    (client as unknown as { api: LabWorkerApi }).api = { ...api, stepOnce: async () => {} } as LabWorkerApi;
    useLab.getState().setNotice(HANDED_OFF_LINE);
    void client.stepOnce();
    expect(useLab.getState().notice).toBeNull();
    // Another notice is not the client's to clear.
    useLab.getState().setNotice("Imported PPO (imported) …");
    client.play();
    expect(useLab.getState().notice).toBe("Imported PPO (imported) …");
  });
});
