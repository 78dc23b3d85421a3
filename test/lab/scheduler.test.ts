/**
 * The scheduler's logic with fake runs (no GPU): round-robin fairness, play/pause/step-once, markers on
 * settings changes, error isolation, update batching, fork, reset, resume and device-loss recovery.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunUpdate } from "../../src/lab/protocol";
import { Scheduler } from "../../src/lab/scheduler";
import { MAX_RUNS, TOO_MANY_RUNS } from "../../src/lab/settings";
import { FakeRun, type Log, setup, spec, tick, until } from "./sched_fakes";

/**
 * Play for `ms` of simulated time, then pause. Fake clocks: a loaded machine cannot slow the steps, so the
 * counts are exact. The clocks stay fake (later advances use vi.advanceTimersByTimeAsync); afterEach restores.
 */
async function playOnFakeClocks(s: Scheduler, ms: number): Promise<void> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
  s.play();
  await vi.advanceTimersByTimeAsync(ms);
  s.pause();
}

describe("Scheduler", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("steps runs round-robin: no run is ever two steps ahead of another", async () => {
    const t = setup();
    for (const id of ["a", "b", "c"]) await t.s.addRun(spec(id));
    t.s.play();
    await until(() => t.log.length >= 30);
    t.s.pause();
    await tick(20);
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (const entry of t.log) {
      counts[entry.split(":")[0]]++;
      const v = Object.values(counts);
      expect(Math.max(...v) - Math.min(...v)).toBeLessThanOrEqual(1);
    }
    expect(t.log.slice(0, 6)).toEqual(["a:1", "b:1", "c:1", "a:2", "b:2", "c:2"]);
  });

  it("a step limit (a lesson's length) pauses the lab once every run got there, even a late-added run", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    expect(() => t.s.setStopAt(-1)).toThrow(/whole number/);
    expect(() => t.s.setStopAt(1.5)).toThrow(/whole number/);
    t.s.setStopAt(3);
    t.s.play();
    await until(() => !t.s.isPlaying);
    expect(t.log).toEqual(["a:1", "b:1", "a:2", "b:2", "a:3", "b:3"]);
    t.s.flush();
    expect(t.last("a")?.status).toBe("paused");
    // A run added later catches up alone; the others stay at the limit.
    await t.s.addRun(spec("c"));
    t.s.play();
    await until(() => !t.s.isPlaying);
    expect(t.log.slice(6)).toEqual(["c:1", "c:2", "c:3"]);
    // Raising the limit lets all of them go on; 0 removes it.
    t.s.setStopAt(4);
    t.s.play();
    await until(() => !t.s.isPlaying);
    expect(t.log.slice(9).sort()).toEqual(["a:4", "b:4", "c:4"]);
    t.s.setStopAt(0);
    t.s.play();
    await until(() => t.log.length >= 15);
    t.s.pause();
  });

  it("a run behind the others takes two turns a round until level; nobody waits", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    t.s.setStopAt(3); // level a and b at 3 (a step limit pauses the lab once every run got there)
    t.s.play();
    await until(() => !t.s.isPlaying);
    t.s.setStopAt(0);
    const at = t.log.length;
    await t.s.addRun(spec("c"));
    t.s.play();
    await until(() => t.log.length >= at + 16);
    t.s.pause();
    await tick(20);
    const after = t.log.slice(at, at + 16);
    // Rounds of a and b once, c twice in a row until it is level (c: 0 → 2 → 4 → 6, a and b: 3 → 4 → 5 → 6),
    // then a, b, c in turn.
    expect(after).toEqual([
      "a:4",
      "b:4",
      "c:1",
      "c:2",
      "a:5",
      "b:5",
      "c:3",
      "c:4",
      "a:6",
      "b:6",
      "c:5",
      "c:6",
      "a:7",
      "b:7",
      "c:7",
      "a:8",
    ]);
  });

  it("a run ahead of the others (imported at a later step) keeps stepping, once a round", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    await t.s.addRun(spec("late"));
    await t.s.resumeRun("late", { step: 40, samples: 0, tokens: 0 }, (r) => {
      (r as FakeRun).steps = 40;
    });
    t.s.play();
    await until(() => t.log.length >= 10);
    t.s.pause();
    await tick(20);
    const first = t.log.slice(0, 10).map((x) => x.split(":")[0]);
    expect(first).toEqual(["a", "a", "b", "b", "late", "a", "a", "b", "b", "late"]);
    expect(t.log.slice(0, 10).filter((x) => x.startsWith("late"))).toEqual(["late:41", "late:42"]);
  });

  it("Play during a Step takes over from it and levels the runs", async () => {
    const t = setup({ ms: 40 });
    for (const id of ["a", "b", "c"]) await t.s.addRun(spec(id));
    const step = t.s.stepOnce();
    await tick(15); // a's step is on the device
    t.s.play(); // b's and c's turns are Play's now
    await step;
    await until(() => t.log.length >= 6);
    t.s.pause();
    await tick(60);
    // Play's first round: b and c, one behind a, take two turns each: a:2, b:1, b:2, c:1, c:2.
    expect(t.log.slice(0, 6)).toEqual(["a:1", "a:2", "b:1", "b:2", "c:1", "c:2"]);
  });

  it("Step pressed twice steps every run twice, one Step after the other", async () => {
    const t = setup({ ms: 20 });
    for (const id of ["a", "b", "c"]) await t.s.addRun(spec(id));
    const first = t.s.stepOnce();
    await tick(5); // a's step is on the device
    const second = t.s.stepOnce();
    await Promise.all([first, second]);
    expect(t.log).toEqual(["a:1", "b:1", "c:1", "a:2", "b:2", "c:2"]);
  });

  it("Reset drops a Step's turns not taken yet", async () => {
    const t = setup({ ms: 20 });
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    const step = t.s.stepOnce();
    await tick(5);
    await t.s.reset();
    await step;
    expect(t.log).toEqual(["a:1"]);
    expect([t.s.stepOf("a"), t.s.stepOf("b")]).toEqual([0, 0]);
  });

  it("under Step the page hears which run is on the device: it reads finishing, the others not", async () => {
    const t = setup({ ms: 60, flushMs: 5 });
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    t.s.flush();
    const seen = t.all().map((u) => `${u.runId} ${u.status}`);
    // a on the device while b waits (still "ready"), then b on the device after a landed.
    const aOn = seen.indexOf("a finishing");
    const bOn = seen.indexOf("b finishing");
    expect(aOn).toBeGreaterThanOrEqual(0);
    expect(bOn).toBeGreaterThan(aOn);
    expect(seen.slice(aOn, bOn)).toContain("a paused"); // a landed before b went on the device
    expect(seen.slice(0, bOn)).not.toContain("b paused");
    expect(t.last("a")?.status).toBe("paused");
    expect(t.last("b")?.status).toBe("paused");
  });

  it("pause stops stepping; stepOnce steps every run once and leaves the lab paused", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    expect(t.log).toEqual(["a:1", "b:1"]);
    expect(t.s.isPlaying).toBe(false);
    t.s.play();
    await until(() => t.log.length >= 6);
    t.s.pause();
    await tick(20);
    const n = t.log.length;
    await tick(30);
    expect(t.log.length).toBe(n);
    t.s.flush();
    expect(t.last("a")?.status).toBe("paused");
  });

  it("a run paused mid-step reads finishing until that step lands, then paused", async () => {
    const t = setup({ ms: 60 });
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    t.s.play();
    await tick(20); // a's first step is on the device
    t.s.pause();
    t.s.flush();
    expect(t.log).toEqual([]);
    expect(t.last("a")?.status).toBe("finishing");
    expect(t.last("b")?.status).toBe("ready"); // not started
    await until(() => t.log.length === 1);
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "paused", step: 1 });
    await tick(100);
    expect(t.log).toEqual(["a:1"]); // nothing more after the pause
  });

  it("caps the speed per run: 10 steps/s with two runs gives each about 10 steps a second", async () => {
    const t = setup();
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    t.s.setSpeed(10);
    expect(() => t.s.setSpeed(-1)).toThrow(/speed must be ≥ 0/);
    await playOnFakeClocks(t.s, 1000);
    const a = t.s.stepOf("a") ?? 0;
    expect(a).toBeLessThanOrEqual(11);
    expect(a).toBeGreaterThanOrEqual(9);
    expect(Math.abs(a - (t.s.stepOf("b") ?? 0))).toBeLessThanOrEqual(1);
  });

  it("the speed cap holds for a run catching up (two turns a round)", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    await t.s.resumeRun("a", { step: 50, samples: 0, tokens: 0 }, (r) => {
      (r as FakeRun).steps = 50;
    });
    await t.s.addRun(spec("b")); // 50 steps behind: two turns in every round of the test
    t.s.setSpeed(10);
    await playOnFakeClocks(t.s, 1000);
    const b = t.s.stepOf("b") ?? 0;
    expect(b).toBeLessThanOrEqual(11);
    expect(b).toBeGreaterThanOrEqual(9);
    // a steps once for each two of b's.
    expect(Math.abs((t.s.stepOf("a") ?? 0) - 50 - b / 2)).toBeLessThanOrEqual(1);
  });

  it("sends points with cumulative samples/tokens, the latest samples, and statuses", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "ready", step: 0, points: [] });
    await t.s.stepOnce();
    await t.s.stepOnce();
    t.s.flush();
    const pts = t.points("a");
    expect(pts.map((p) => [p.step, p.samples, p.tokens])).toEqual([
      [1, 2, 10],
      [2, 4, 20],
    ]);
    expect(t.last("a")?.samples?.[0].prompt).toBe("p2");
  });

  it("batches updates: at most one onUpdate per flush interval", async () => {
    const t = setup({ flushMs: 100, ms: 1 });
    for (const id of ["a", "b", "c"]) await t.s.addRun(spec(id));
    const before = t.updates.length;
    await playOnFakeClocks(t.s, 520);
    expect(t.log.length).toBeGreaterThan(30);
    // One flush may fire at once; then at most one per 100 ms.
    expect(t.updates.length - before).toBeLessThanOrEqual(Math.ceil(520 / 100) + 2);
    await vi.advanceTimersByTimeAsync(150);
    // Nothing is lost: every step's point arrives.
    for (const id of ["a", "b", "c"])
      expect(t.points(id).map((p) => p.step)).toEqual(
        Array.from({ length: t.s.stepOf(id) ?? 0 }, (_, i) => i + 1),
      );
  });

  it("waits for the page's acknowledgement: a slow page gets fewer, larger updates and loses nothing", async () => {
    const log: Log = [];
    const got: RunUpdate[][] = [];
    let release: (() => void) | null = null;
    const s = new Scheduler({
      factory: {
        create: async (sp) => new FakeRun(sp.id, sp.config, log),
        fork: async () => {
          throw new Error("unused");
        },
      },
      flushMs: 0,
      onUpdate: (u) => {
        got.push(u);
        return new Promise<void>((r) => {
          release = r;
        });
      },
    });
    await s.addRun(spec("a"));
    await until(() => got.length === 1);
    s.play();
    await until(() => log.length >= 10);
    // Not acknowledged: nothing more was sent while ten steps ran.
    expect(got.length).toBe(1);
    (release as unknown as () => void)();
    await until(() => got.length === 2);
    expect(got[1][0].points.length).toBeGreaterThanOrEqual(10);
    s.pause();
    await tick(20);
    s.flush();
    expect(got.flat().flatMap((u) => u.points.map((p) => p.step))).toEqual(
      Array.from({ length: s.stepOf("a") ?? 0 }, (_, i) => i + 1),
    );
    s.dispose();
  });

  it("setConfig mid-run applies at the next step and records a marker 'β old → new'", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    await t.s.stepOnce();
    await t.s.stepOnce();
    await t.s.setConfig("a", { beta: 0 });
    await t.s.stepOnce();
    t.s.flush();
    expect(t.all().flatMap((u) => u.markers ?? [])).toEqual([{ runId: "a", step: 3, label: "β 0.05 → 0" }]);
    expect(t.points("a").map((p) => p.metrics.beta)).toEqual([0.05, 0.05, 0]);
    expect(t.s.specOf("a")?.config).toEqual({ beta: 0 });
  });

  it("Step after a pause mid-round steps only the runs one step behind; a larger gap steps every run", async () => {
    const t = setup({ ms: 30 });
    const at = () => ["a", "b", "c"].map((id) => t.s.stepOf(id));
    for (const id of ["a", "b", "c"]) await t.s.addRun(spec(id));
    // Pause in the middle of round 2: "a" has done step 2, "b" and "c" have not.
    const push = t.log.push.bind(t.log);
    t.log.push = (...x: string[]) => {
      const n = push(...x);
      if (n === 4) t.s.pause(); // the user presses pause while "a" finishes step 2
      return n;
    };
    t.s.play();
    await until(() => !t.s.isPlaying && t.log.length >= 4);
    await tick(80);
    expect(at()).toEqual([2, 1, 1]);
    await t.s.stepOnce();
    expect(t.log.slice(4)).toEqual(["b:2", "c:2"]);
    expect(at()).toEqual([2, 2, 2]);
    await t.s.stepOnce();
    expect(at()).toEqual([3, 3, 3]);
    // A run added late (step 0, two or more behind) does not hold the others back.
    await t.s.addRun(spec("d"));
    await t.s.stepOnce();
    expect(["a", "b", "c", "d"].map((id) => t.s.stepOf(id))).toEqual([4, 4, 4, 1]);
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
      { runId: "a", step: 3, label: "β 0.05 → 0.1, lr 0.0001 → 0.2" },
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
