/**
 * LabClient.play at the stop step ("Stop at"): refused with a notice while every run is there; once the user
 * raises or clears it, Play trains on and that notice goes (it no longer holds); so does the Pipeline hand-off's
 * "Press Play to train" once Play or Step trains. A Pipeline stage started while the runs play pauses them and
 * says so (that sentence too goes once Play trains); started while paused, it says nothing.
 */
import { describe, expect, it } from "vitest";
import type { LabWorkerApi, RunSpec } from "../../src/lab/protocol";
import { HANDED_OFF_LINE, LabClient, STAGE_PAUSED_LINE } from "../../src/ui/client";
import { type RunState, useLab } from "../../src/ui/lab_store";

const run: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: {} };

/**
 * A client on `api` over a ready lab whose one run (PPO) is paused at `step`, plus `curves` (runs imported for
 * comparison, at their steps); the experiment stops at `stopAt` (undefined: never).
 */
function readyLab(
  api: Partial<LabWorkerApi>,
  step: number,
  stopAt?: number,
  curves: [RunSpec, number][] = [],
) {
  const client = new LabClient();
  (client as unknown as { api: Partial<LabWorkerApi> }).api = api;
  const s = useLab.getState();
  s.setSpec({ task: "arithmetic", model: "nano", seed: 0, runs: [run], steps: stopAt });
  const state = (spec: RunSpec, at: number): RunState => ({
    spec,
    status: "paused",
    step: at,
    history: [],
    markers: [],
    samples: [],
    error: null,
  });
  s.restoreRuns([state(run, step), ...curves.map(([c, at]) => ({ ...state(c, at), comparison: true }))]);
  s.setPhase("ready");
  return client;
}

describe("Play at the stop step", () => {
  it("is refused with a notice that Reset takes away (every run is back at step 0), what follows it kept", async () => {
    const api = { play: async () => {}, reset: async () => {} } as unknown as LabWorkerApi;
    const client = readyLab(api, 4, 4);
    client.play();
    useLab.getState().setNotice(`${useLab.getState().notice} Another tab opened the lab.`);
    await client.reset();
    expect(useLab.getState().notice).toBe("Another tab opened the lab.");
    expect(useLab.getState().runs[Object.keys(useLab.getState().runs)[0]].step).toBe(0);
    useLab.getState().setNotice(null);
  });

  it("is refused with a notice, which goes once the lab trains on", () => {
    let plays = 0;
    const api = { play: async () => void plays++ } as unknown as LabWorkerApi;
    const client = readyLab(api, 4, 4);
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
        "Every run has reached the stop step (4): raise “Stop at” or clear it to train on, or press Reset to start again. Another tab opened the lab.",
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

  it("a Pipeline stage started while the runs play pauses them and says so, until Play", async () => {
    let stages = 0;
    let pauses = 0;
    const api = {
      play: async () => {},
      pause: async () => void pauses++,
      pipelineStage: async () => {
        stages++;
        return { stage: "sft", steps: 1, seconds: 1 };
      },
    } as unknown as LabWorkerApi;
    const client = readyLab(api, 2);
    useLab.getState().setNotice("Another tab opened the lab.");
    client.play();
    expect(useLab.getState().playing).toBe(true);
    await client.pipelineStage("sft", {}, () => {});
    await client.pipelineStage("rm", {}, () => {}); // already paused: nothing more is said
    expect(stages).toBe(2);
    expect(useLab.getState().playing).toBe(false);
    expect(useLab.getState().notice).toBe(`Another tab opened the lab. ${STAGE_PAUSED_LINE}`);
    client.play();
    expect(useLab.getState().notice).toBe("Another tab opened the lab.");
    client.pause();
    useLab.getState().setNotice(null);
    await client.pipelineStage("sft", {}, () => {});
    expect(useLab.getState().notice).toBeNull();
    expect(pauses).toBe(1);
  });

  it("Stop at set at or below every run while playing says at once why they stop", () => {
    const api = { play: async () => {}, setStopAt: async () => {} } as unknown as LabWorkerApi;
    // A run imported for comparison (its curve ends at step 2) does not count: it never trains.
    const curve: RunSpec = { id: "ppo-2", algo: "ppo", label: "PPO (imported)", config: {} };
    const client = readyLab(api, 9, undefined, [[curve, 2]]);
    useLab.getState().setNotice(null);
    client.setStopAt(12); // ahead of the runs: nothing to say
    expect(useLab.getState().notice).toBeNull();
    client.play();
    client.setStopAt(20);
    expect(useLab.getState().notice).toBeNull();
    useLab.getState().setNotice("Another tab opened the lab.");
    client.setStopAt(3);
    expect(useLab.getState().notice).toBe(
      "Another tab opened the lab. Every run has reached the stop step (3): raise “Stop at” or clear it to train on, or press Reset to start again.",
    );
    client.setStopAt(0);
    client.play();
    expect(useLab.getState().notice).toBe("Another tab opened the lab.");
  });

  it("counts the Steps pressed and not finished (the Step button shows those queued behind the first)", async () => {
    const pending: (() => void)[] = [];
    const api = {
      stepOnce: () => new Promise<void>((r) => pending.push(r)),
    } as unknown as LabWorkerApi;
    const client = readyLab(api, 0);
    const steps = [client.stepOnce(), client.stepOnce(), client.stepOnce()];
    expect(useLab.getState().stepsQueued).toBe(3);
    pending.shift()?.();
    await steps[0];
    expect(useLab.getState().stepsQueued).toBe(2);
    for (const r of pending.splice(0)) r();
    await Promise.all(steps);
    expect(useLab.getState().stepsQueued).toBe(0);
    expect(useLab.getState().steppingFrom).toBeNull();
    // Play drops the Steps queued (the worker does): none waits, and their late ends do not count down again.
    (client as unknown as { api: LabWorkerApi }).api = {
      ...api,
      play: async () => {},
      pause: async () => {},
    } as LabWorkerApi;
    const more = [client.stepOnce(), client.stepOnce(), client.stepOnce()];
    client.play();
    expect(useLab.getState().stepsQueued).toBe(0);
    client.pause();
    const late = client.stepOnce();
    expect(useLab.getState().stepsQueued).toBe(1);
    pending.shift()?.(); // an old Step ends: the new one is still counted
    await more[0];
    expect(useLab.getState().stepsQueued).toBe(1);
    for (const r of pending.splice(0)) r();
    await Promise.all([...more, late]);
    expect(useLab.getState().stepsQueued).toBe(0);
  });

  it("removing the last run that trains while playing pauses, so a run added next waits for Play", async () => {
    const calls: string[] = [];
    const api = {
      play: async () => void calls.push("play"),
      pause: async () => void calls.push("pause"),
      removeRun: async (id: string) => void calls.push(`remove ${id}`),
    } as unknown as LabWorkerApi;
    const curve: RunSpec = { id: "ppo-2", algo: "ppo", label: "PPO (imported)", config: {} };
    const client = readyLab(api, 2, undefined, [[curve, 5]]);
    client.play();
    expect(useLab.getState().playing).toBe(true);
    // Only a comparison run (which nothing trains) is left: the lab pauses, in the store and in the worker.
    await client.removeRun("ppo-1");
    expect(useLab.getState().playing).toBe(false);
    expect(calls).toEqual(["play", "pause", "remove ppo-1"]);
    // A run left that trains keeps the lab playing.
    const other = readyLab(api, 2);
    const grpo = { ...run, id: "grpo-1", algo: "grpo" as const };
    useLab.getState().restoreRuns([{ ...useLab.getState().runs["ppo-1"], spec: grpo }]);
    other.play();
    await other.removeRun("ppo-1");
    expect(useLab.getState().playing).toBe(true);
  });
});

describe("Play and Step while the page restores saved runs", () => {
  it("do nothing until the checkpoints are in (a step from the start model would land in a restored curve)", async () => {
    let plays = 0;
    let steps = 0;
    const api = {
      play: async () => void plays++,
      stepOnce: async () => void steps++,
      pause: async () => {},
    } as unknown as LabWorkerApi;
    const client = readyLab(api, 5);
    useLab.getState().setPlaying(false);
    useLab.getState().setRestoring(true);
    client.play();
    await client.stepOnce();
    expect([plays, steps, useLab.getState().playing]).toEqual([0, 0, false]);
    useLab.getState().setRestoring(false);
    client.play();
    expect([plays, useLab.getState().playing]).toEqual([1, true]);
    client.pause();
  });
});
