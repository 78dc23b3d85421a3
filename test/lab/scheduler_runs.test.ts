/**
 * The scheduler's runs with fake runs (no GPU): settings changes and their markers, error isolation, the cap on
 * runs, fork and remove, reset, withRun and resume. Device-loss recovery is in ./sched_recovery.test.ts.
 */

import { describe, expect, it } from "vitest";
import { MAX_RUNS, TOO_MANY_RUNS } from "../../src/lab/settings";
import { OnnxRewardModelError } from "../../src/rewards/onnx_rm_error";
import { type FakeRun, setup, spec, tick, until } from "./sched_fakes";

describe("Scheduler", () => {
  it("setConfig mid-run applies at the next step and records a marker 'β old → new'", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    await t.s.stepOnce();
    await t.s.stepOnce();
    await t.s.setConfig("a", { beta: 0 });
    await t.s.stepOnce();
    t.s.flush();
    expect(t.all().flatMap((u) => u.markers ?? [])).toEqual([
      {
        runId: "a",
        step: 3,
        label: "β 0.05 → 0",
        changes: [{ key: "beta", from: 0.05, to: 0, label: "β 0.05 → 0" }],
      },
    ]);
    expect(t.points("a").map((p) => p.metrics.beta)).toEqual([0.05, 0.05, 0]);
    expect(t.s.specOf("a")?.config).toEqual({ beta: 0 });
  });

  it("renameRun renames a run at once (its spec, its fork's label); an unknown id is ignored", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    await t.s.stepOnce();
    await t.s.renameRun("a", "β = 0");
    await t.s.renameRun("nope", "x");
    expect(t.s.specOf("a")?.label).toBe("β = 0");
    const used = await t.s.forkRun("a", { ...spec("b"), label: "β = 0 (fork @ 0)" });
    expect(used.label).toBe("β = 0 (fork @ 1)");
    // A fork named by the user is no fork to Reset's relabelling: it keeps its name.
    await t.s.renameRun("b", "β = 0.1");
    await t.s.reset();
    expect(t.s.specOf("b")?.label).toBe("β = 0.1");
  });

  it("a rename queued behind a step in flight lands after the run's add and a settings change", async () => {
    const t = setup({ ms: 30 });
    await t.s.addRun(spec("a"));
    const stepping = t.s.stepOnce(); // holds the scheduler
    const adding = t.s.addRun(spec("b")); // the page shows "b" at once, and the user names it
    const renaming = t.s.renameRun("b", "my name");
    const changing = t.s.setConfig("b", { beta: 0.2 }); // rebuilt before its first step: keeps the name
    await Promise.all([stepping, adding, renaming, changing]);
    expect(t.s.specOf("b")?.label).toBe("my name");
    expect(t.s.specOf("b")?.config).toEqual({ beta: 0.2 });
  });

  it("changes between two steps merge into one marker, and changes that cancel out leave none", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    await t.s.stepOnce();
    await t.s.setConfig("a", { beta: 0.3 });
    await t.s.setConfig("a", { beta: 0.05 }); // back to the value step 1 used
    await t.s.stepOnce();
    await t.s.setConfig("a", { beta: 0.3 });
    await t.s.setConfig("a", { beta: 0.1, lr: 0.2 });
    await t.s.stepOnce();
    t.s.flush();
    expect(t.all().flatMap((u) => u.markers ?? [])).toEqual([
      {
        runId: "a",
        step: 3,
        label: "β 0.05 → 0.1, lr 1e-4 → 0.2",
        changes: [
          { key: "beta", from: 0.05, to: 0.1, label: "β 0.05 → 0.1" },
          { key: "lr", from: 1e-4, to: 0.2, label: "lr 1e-4 → 0.2" },
        ],
      },
    ]);
    expect(t.points("a").map((p) => p.metrics.beta)).toEqual([0.05, 0.05, 0.1]);
  });

  it("setConfig rejects an invalid value and keeps the settings; before step 1 it rebuilds the run", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    await t.s.setConfig("a", { lr: 0.5 });
    expect(t.made.length).toBe(2);
    expect(t.made[0].destroyed).toBe(true);
    expect(t.s.runOf("a")?.config.lr).toBe(0.5);
    await t.s.stepOnce();
    await expect(t.s.setConfig("a", { beta: -1 })).rejects.toThrow(/beta must be ≥ 0/);
    expect(t.s.runOf("a")?.config.beta).toBe(0.05);
    await expect(t.s.setConfig("nope", { beta: 1 })).rejects.toThrow(/no run "nope"/);
  });

  it("a run with a non-finite metric pauses in error naming metric and step; the others go on", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    (t.s.runOf("a") as FakeRun).failAt = 3;
    t.s.play();
    await until(() => (t.s.stepOf("b") ?? 0) >= 8);
    t.s.pause();
    await tick(20);
    t.s.flush();
    expect(t.s.stepOf("a")).toBe(2);
    const a = t.last("a");
    expect(a?.status).toBe("error");
    expect(a?.error).toMatch(/loss became NaN at step 3/);
    expect(t.last("b")?.status).toBe("paused");
  });

  it("a reward model's failure reads as words on the run card (its kind is for code)", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    const run = t.s.runOf("a") as FakeRun;
    run.failAt = 1;
    run.failWith = new OnnxRewardModelError(
      "timeout",
      "the reward model took longer than 20 s to score a batch of 32 sequences of 20 tokens, so the lab stopped it",
    );
    await t.s.stepOnce();
    t.s.flush();
    expect(t.last("a")?.error).toBe(
      "step 1 failed: the reward model took longer than 20 s to score a batch of 32 sequences of 20 tokens, so the lab stopped it",
    );
  });

  it("stops playing when every run is in error", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    (t.s.runOf("a") as FakeRun).failAt = 1;
    t.s.play();
    await until(() => !t.s.isPlaying);
    t.s.flush();
    expect(t.last("a")?.status).toBe("error");
  });

  it("an invalid opening run is kept in error (tolerant add); addRun rejects duplicates", async () => {
    const t = setup();
    await t.s.addRun(spec("a", { lr: -1 }), true);
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "error" });
    expect(t.last("a")?.error).toMatch(/A could not start: a.lr must be ≥ 0/);
    await expect(t.s.addRun(spec("a"))).rejects.toThrow(/already exists/);
    await expect(t.s.addRun(spec("z", { lr: -1 }))).rejects.toThrow(/lr must be/);
    // Fixing the setting before the first step brings it back.
    await t.s.setConfig("a", { lr: 1e-3 });
    t.s.flush();
    expect(t.last("a")?.status).toBe("ready");
  });

  it("holds at most MAX_RUNS runs: a run added or duplicated past them is refused, and a removal makes room", async () => {
    const t = setup();
    for (let i = 0; i < MAX_RUNS; i++) await t.s.addRun(spec(`r${i}`));
    await expect(t.s.addRun(spec("extra"))).rejects.toThrow(TOO_MANY_RUNS);
    await expect(t.s.forkRun("r0", { ...spec("r0b"), label: "R0 (fork @ 0)" })).rejects.toThrow(
      TOO_MANY_RUNS,
    );
    expect(t.s.runIds).toHaveLength(MAX_RUNS);
    t.s.removeRun("r3");
    await t.s.forkRun("r0", { ...spec("r0b"), label: "R0 (fork @ 0)" });
    expect(t.s.runIds).toHaveLength(MAX_RUNS);
  });

  it("fork copies the source's step count and unsent points; remove stops and frees a run", async () => {
    const t = setup({ flushMs: 10_000 });
    await t.s.addRun(spec("a"));
    t.s.flush();
    // Two steps whose points stay unsent (the throttle holds them; a Step would send them when it ends).
    t.s.setStopAt(2);
    t.s.play();
    await until(() => !t.s.isPlaying);
    t.s.setStopAt(0);
    // The page saw step 0 (its points are unsent): the spec comes back with the step the source is at here.
    const used = await t.s.forkRun("a", { ...spec("a2"), label: "A (fork @ 0)" });
    expect(used).toMatchObject({ id: "a2", label: "A (fork @ 2)", forkOf: { id: "a", step: 2 } });
    expect(t.s.specOf("a2")).toEqual(used);
    expect(t.s.runIds).toEqual(["a", "a2"]);
    t.s.flush();
    expect(t.last("a2")).toMatchObject({ step: 2 });
    expect(t.points("a2").map((p) => p.step)).toEqual([1, 2]);
    await t.s.stepOnce();
    t.s.flush();
    expect(t.points("a2").at(-1)).toMatchObject({ step: 3, samples: 6, tokens: 30 });
    const forked = t.s.runOf("a2") as FakeRun;
    t.s.removeRun("a2");
    await t.s.stepOnce();
    expect(forked.destroyed).toBe(true);
    expect(t.log.filter((l) => l.startsWith("a2:"))).toEqual(["a2:3"]);
    await expect(t.s.forkRun("zz", spec("q"))).rejects.toThrow(/no run "zz"/);
  });

  it("reset rebuilds every run from the start and tells the page to drop the history", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    (t.s.runOf("a") as FakeRun).failAt = 2;
    await t.s.stepOnce();
    await t.s.stepOnce();
    await t.s.reset();
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "ready", step: 0, rewindTo: 0 });
    expect(t.last("a")?.error).toBeUndefined();
    expect(t.last("b")).toMatchObject({ status: "ready", step: 0, rewindTo: 0 });
    await t.s.stepOnce();
    expect(t.log.slice(-2)).toEqual(["a:1", "b:1"]);
  });

  it("reset drops the fork mark from duplicates' labels, as the page's store does", async () => {
    const t = setup();
    await t.s.addRun({ ...spec("a"), label: "PPO" });
    await t.s.stepOnce();
    await t.s.forkRun("a", { ...spec("a2"), label: "PPO (fork @ 1)" });
    await t.s.stepOnce();
    await t.s.forkRun("a", { ...spec("a3"), label: "PPO (fork @ 2)" });
    await t.s.forkRun("a", { ...spec("a4"), label: "GRPO (fork @ 2)" });
    expect(t.s.runIds).toEqual(["a", "a4", "a3", "a2"]); // a fork goes right after its source
    await t.s.reset();
    // Numbered by id, as the page's store (which lists them a, a2, a3, a4) numbers them.
    expect(["a", "a2", "a3", "a4"].map((id) => t.s.specOf(id)?.label)).toEqual([
      "PPO",
      "PPO 2",
      "PPO 3",
      "GRPO",
    ]);
    // Restarted from the start model, a fork has no fork point any more (its lines are drawn whole).
    expect(["a2", "a3", "a4"].map((id) => t.s.specOf(id)?.forkOf)).toEqual([undefined, undefined, undefined]);
  });

  it("withRun acts between steps: the run's own count and the scheduler's always agree there", async () => {
    const t = setup({ ms: 3 });
    await t.s.addRun(spec("a"));
    t.s.play();
    const seen: [number, number | undefined][] = [];
    for (let i = 0; i < 5; i++) {
      await tick(4);
      seen.push(
        await t.s.withRun(
          "a",
          (r) => [(r as FakeRun).steps, t.s.stepOf("a")] as [number, number | undefined],
        ),
      );
    }
    t.s.pause();
    for (const [own, sched] of seen) expect(own).toBe(sched);
    await expect(t.s.withRun("zz", () => 0)).rejects.toThrow(/no run "zz"/);
  });

  it("resumeRun continues a run after saved counters", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    await t.s.resumeRun("a", { step: 7, samples: 70, tokens: 700 }, (r) => {
      (r as FakeRun).steps = 7;
    });
    await t.s.stepOnce();
    t.s.flush();
    expect(t.points("a")).toMatchObject([{ step: 8, samples: 72, tokens: 710 }]);
  });
});
