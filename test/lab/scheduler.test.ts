/**
 * The scheduler's turns with fake runs (no GPU): round-robin fairness, a run behind or ahead of the others, the
 * step limit, and play/pause/step-once. Speed and updates to the page are in ./scheduler_updates.test.ts;
 * settings, errors, fork, reset and resume in ./scheduler_runs.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type FakeRun, setup, spec, tick, until } from "./sched_fakes";

describe("Scheduler", () => {
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
});
