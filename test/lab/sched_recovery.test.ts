/**
 * The scheduler after a lost GPU device (fake runs, no GPU): recover rebuilds the runs from their checkpoints,
 * forks follow the rewind, and a run that could not be restored starts over when its settings change.
 */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../src/lab/protocol";
import { RewardSourceError } from "../../src/lab/reward_sources";
import type { Restored } from "../../src/lab/scheduler";
import { FakeRun, setup, spec, tick, until } from "./sched_fakes";

type Setup = ReturnType<typeof setup>;

/** Lose the device while playing: the scheduler halts; the lab pauses unless `playOn`. */
async function loseDevice(t: Setup, playOn = false): Promise<void> {
  for (const r of t.made) r.lost = true;
  t.s.play();
  await until(() => t.s.isHalted);
  if (!playOn) t.s.pause();
}

/** Recover with `rebuild`; each run's marker reads "GPU lost: resumed from step N", the notice "device lost". */
function recoverWith(t: Setup, rebuild: (spec: RunSpec) => Promise<Restored>): Promise<void> {
  return t.s.recover(rebuild, (_sp, step) => ({
    marker: `GPU lost: resumed from step ${step}`,
    notice: "device lost",
  }));
}

describe("Scheduler: recovery from a lost device", () => {
  it("a lost device halts without blaming the runs; recover rebuilds them and resumes playing", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    await t.s.stepOnce();
    await t.s.stepOnce();
    await loseDevice(t, true);
    await recoverWith(t, async (sp) => {
      const run = new FakeRun(sp.id, sp.config, t.log);
      run.steps = 2;
      return { run, step: 2 };
    });
    await until(() => (t.s.stepOf("b") ?? 0) >= 5);
    t.s.pause();
    await tick(20);
    t.s.flush();
    const a = t.all().filter((u) => u.runId === "a");
    const rewind = a.find((u) => u.rewindTo !== undefined);
    expect(rewind).toMatchObject({ rewindTo: 2, notice: "device lost" });
    expect(rewind?.markers).toEqual([{ runId: "a", step: 2, label: "GPU lost: resumed from step 2" }]);
    expect(a.every((u) => u.status !== "error")).toBe(true);
    // After the rewind the points continue from step 3 with the counters of step 2.
    const after = a.slice(a.indexOf(rewind!)).flatMap((u) => u.points);
    expect(after[0]).toMatchObject({ step: 3, samples: 6, tokens: 30 });
  });

  it("a fork made before a recovery's rewind reached the page rewinds with it", async () => {
    const t = setup({ flushMs: 10_000 }); // the throttle holds the updates: the rewind stays unsent
    await t.s.addRun(spec("a"));
    t.s.flush();
    for (let i = 0; i < 3; i++) await t.s.stepOnce();
    await loseDevice(t);
    await recoverWith(t, async (sp) => {
      const run = new FakeRun(sp.id, sp.config, t.log);
      run.steps = 1;
      return { run, step: 1 };
    });
    const used = await t.s.forkRun("a", { ...spec("a2"), label: "A (fork @ 3)" });
    expect(used).toMatchObject({ label: "A (fork @ 1)", forkOf: { id: "a", step: 1 } });
    t.s.flush();
    // The page copied a's history as it had it (to step 3): the fork's first update takes it back to step 1.
    expect(t.all().find((u) => u.runId === "a2")).toMatchObject({ step: 1, rewindTo: 1 });
  });

  it("a run that could not be restored starts over at step 0 when a setting changes (new numbering, no old counters)", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    for (let i = 0; i < 3; i++) await t.s.stepOnce();
    await loseDevice(t);
    await recoverWith(t, async (sp) => {
      if (sp.id === "a") throw new Error("no checkpoint");
      const run = new FakeRun(sp.id, sp.config, t.log);
      run.steps = 3;
      return { run, step: 3 };
    });
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "error" });
    expect(t.last("a")?.error).toMatch(/could not be restored: no checkpoint/);
    await t.s.setConfig("a", { beta: 0.2 });
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "ready", step: 0, rewindTo: 0 });
    expect(t.last("a")?.notice).toMatch(/starts over from the start model/);
    await t.s.stepOnce();
    t.s.flush();
    // Its first step is step 1 again, counted from zero; b goes on from its checkpoint.
    expect(t.points("a").at(-1)).toMatchObject({ step: 1, samples: 2, tokens: 10 });
    expect(t.points("b").at(-1)).toMatchObject({ step: 4 });
    expect(t.s.stepOf("a")).toBe(1);
  });

  it("a fork that could not be restored and starts over is a fork of nothing, named as after Reset", async () => {
    const t = setup({ flushMs: 10_000 });
    await t.s.addRun(spec("a"));
    for (let i = 0; i < 3; i++) await t.s.stepOnce();
    const used = await t.s.forkRun("a", { ...spec("a2"), label: "A (fork @ 3)" });
    expect(used.forkOf).toEqual({ id: "a", step: 3 });
    await t.s.stepOnce();
    await loseDevice(t);
    await recoverWith(t, async (sp) => {
      if (sp.id === "a2") throw new Error("no checkpoint");
      const run = new FakeRun(sp.id, sp.config, t.log);
      run.steps = 4;
      return { run, step: 4 };
    });
    t.s.flush();
    await t.s.setConfig("a2", { beta: 0.3 });
    expect(t.s.specOf("a2")).toMatchObject({ label: "A 2", config: { beta: 0.3 } });
    expect(t.s.specOf("a2")?.forkOf).toBeUndefined();
    t.s.flush();
    const u = t.last("a2");
    expect(u).toMatchObject({ step: 0, rewindTo: 0 });
    // Its markers from the lost run (the GPU-lost one, unsent) went with its history.
    expect(u?.markers ?? []).toEqual([]);
  });

  it("a run in error goes back to its last checkpoint on request, and trains on", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    const run = t.made[0];
    run.failAt = 4;
    for (let i = 0; i < 4; i++) await t.s.stepOnce();
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "error" });
    // Not in error: refused.
    await t.s.addRun(spec("b"));
    await expect(
      t.s.rewindRun(
        "b",
        async () => ({ run, step: 0 }),
        () => ({ marker: "", notice: "" }),
      ),
    ).rejects.toThrow(/not in error/);
    const step = await t.s.rewindRun(
      "a",
      async (sp) => {
        const back = new FakeRun(sp.id, sp.config, t.log);
        back.steps = 2;
        return { run: back, step: 2 };
      },
      (sp, at) => ({ marker: `back to step ${at}`, notice: `${sp.label} went back to step ${at}` }),
    );
    expect(step).toBe(2);
    t.s.flush();
    const u = t.last("a");
    expect(u).toMatchObject({ rewindTo: 2, notice: "A went back to step 2" });
    expect(u?.status).not.toBe("error");
    expect(u?.markers).toEqual([{ runId: "a", step: 2, label: "back to step 2" }]);
    await t.s.stepOnce();
    t.s.flush();
    expect(t.points("a").at(-1)).toMatchObject({ step: 3 });
  });

  it("a run whose reward source failed tries the step again where it is; a non-finite one is no retry", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    const run = t.made[0];
    run.failAt = 3;
    run.failWith = new RewardSourceError('the custom reward model "m.onnx" was stopped (…)');
    for (let i = 0; i < 3; i++) await t.s.stepOnce();
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "error", retryable: true });
    let rebuilt = 0;
    const step = await t.s.rewindRun(
      "a",
      async () => {
        rebuilt++;
        return { run, step: 0 };
      },
      () => ({ marker: "back", notice: "back" }),
    );
    expect([step, rebuilt]).toEqual([2, 0]);
    t.s.flush();
    const u = t.last("a");
    expect(u?.status).not.toBe("error");
    expect([u?.rewindTo, u?.retryable, u?.markers]).toEqual([undefined, undefined, undefined]);
    run.failAt = null;
    await t.s.stepOnce();
    t.s.flush();
    expect(t.points("a").map((p) => p.step)).toEqual([1, 2, 3]);
    // A failure of the training itself (a non-finite loss) is not retried: it goes back to a checkpoint.
    run.failAt = 4;
    run.failWith = null;
    await t.s.stepOnce();
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "error" });
    expect(t.last("a")?.retryable).toBeUndefined();
  });

  it("a run sent back to the start model is named as the page names it (no import or fork mark)", async () => {
    const t = setup();
    await t.s.addRun({ ...spec("a"), label: "PPO (imported)" });
    await t.s.addRun({ ...spec("b"), label: "PPO" });
    t.made[0].failAt = 2;
    for (let i = 0; i < 2; i++) await t.s.stepOnce();
    expect(
      await t.s.rewindRun(
        "a",
        async (sp) => ({ run: new FakeRun(sp.id, sp.config, t.log), step: 0 }),
        (_sp, at) => ({ marker: `back to step ${at}`, notice: "" }),
      ),
    ).toBe(0);
    // As src/ui/apply_updates.ts relabels it on the page's rewindTo 0 (restartedRun): "PPO" is taken.
    expect(t.s.specOf("a")?.label).toBe("PPO 2");
    expect(t.s.specOf("b")?.label).toBe("PPO");
  });

  it("a knob changed after the checkpoint a run goes back to is marked again at the step after it", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    for (let i = 0; i < 2; i++) await t.s.stepOnce();
    await t.s.setConfig("a", { beta: 0.2 });
    for (let i = 0; i < 2; i++) await t.s.stepOnce();
    t.s.flush();
    expect(t.all().flatMap((u) => u.markers ?? [])).toEqual([
      {
        runId: "a",
        step: 3,
        label: "β 0.05 → 0.2",
        changes: [{ key: "beta", from: 0.05, to: 0.2, label: "β 0.05 → 0.2" }],
      },
    ]);
    await loseDevice(t);
    // Back to step 2, whose weights trained with β 0.05: steps 3 and 4 (and their marker) are gone, β 0.2 stays.
    await recoverWith(t, async (sp) => {
      const run = new FakeRun(sp.id, sp.config, t.log);
      run.steps = 2;
      run.trainedWith = { ...run.config, beta: 0.05 };
      return { run, step: 2 };
    });
    await t.s.stepOnce();
    t.s.flush();
    const after = t.all().slice(t.all().findIndex((u) => u.rewindTo === 2));
    expect(after.flatMap((u) => u.markers ?? [])).toEqual([
      { runId: "a", step: 2, label: "GPU lost: resumed from step 2" },
      {
        runId: "a",
        step: 3,
        label: "β 0.05 → 0.2",
        changes: [{ key: "beta", from: 0.05, to: 0.2, label: "β 0.05 → 0.2" }],
      },
    ]);
  });

  it("a run resumed from a saved checkpoint (a reload) marks the settings its weights did not train with", async () => {
    const t = setup();
    await t.s.addRun({ ...spec("a"), config: { beta: 0.2 } });
    await t.s.addRun(spec("b"));
    // a's checkpoint trained with β 0.05 (changed while paused, or after it was saved); b's with what it has.
    await t.s.resumeRun("a", { step: 5, samples: 10, tokens: 50 }, (r) => {
      const run = r as FakeRun;
      run.steps = 5;
      run.trainedWith = { ...run.config, beta: 0.05 };
    });
    await t.s.resumeRun("b", { step: 5, samples: 10, tokens: 50 }, (r) => {
      const run = r as FakeRun;
      run.steps = 5;
      run.trainedWith = { ...run.config };
    });
    await t.s.stepOnce();
    t.s.flush();
    expect(t.all().flatMap((u) => u.markers ?? [])).toEqual([
      {
        runId: "a",
        step: 6,
        label: "β 0.05 → 0.2",
        changes: [{ key: "beta", from: 0.05, to: 0.2, label: "β 0.05 → 0.2" }],
      },
    ]);
  });

  it("a run whose step loses the device twice in a row is named, and a recovery told not to resume stops Play", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    // b's steps lose the device every time (too large for the GPU); a's land.
    const rebuild = async (sp: RunSpec) => {
      const run = new FakeRun(sp.id, sp.config, t.log);
      run.steps = 1;
      run.lost = sp.id === "b";
      return { run, step: 1 };
    };
    for (const r of t.made) if (r.id === "b") r.lost = true;
    t.s.play();
    await until(() => t.s.isHalted);
    expect(t.s.repeatedLoss).toBeNull(); // b's first loss
    await t.s.recover(rebuild, () => ({ marker: "lost", notice: "lost" }));
    await until(() => t.s.isHalted); // a lands a step, then b loses the device again
    expect(t.s.stepOf("a")).toBe(2);
    expect(t.s.repeatedLoss?.id).toBe("b");
    await t.s.recover(rebuild, () => ({ marker: "lost", notice: "lost again" }), false);
    expect(t.s.repeatedLoss).toBeNull();
    await tick(30);
    t.s.flush();
    // Paused, and the page is told so with the notice.
    expect(t.s.stepOf("a")).toBe(1);
    const last = t.all().filter((u) => u.notice === "lost again");
    expect(last.map((u) => [u.runId, u.stopped])).toEqual([
      ["a", true],
      ["b", true],
    ]);
  });

  it("a device lost while no step runs is not a repeated loss", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    await t.s.stepOnce();
    t.s.halt(); // lost while paused (the system slept, a reset elsewhere)
    expect(t.s.repeatedLoss).toBeNull();
  });
});
