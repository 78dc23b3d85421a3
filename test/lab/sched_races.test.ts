/**
 * Commands that arrive while another is waiting on a run being made (Scheduler): a removal during an add, a
 * Reset, a device-loss recovery or a fork; and a run added held until its checkpoint is in. Each await in the
 * scheduler is a point where the page's next message gets in.
 */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../src/lab/protocol";
import type { RunFactory } from "../../src/lab/scheduler";
import { FakeRun, setup, spec, tick } from "./sched_fakes";

/** The scheduler's factory, slowed: each create and fork takes `ms` (a GPU factory builds buffers, loads weights). */
function slow(t: ReturnType<typeof setup>, ms = 20): void {
  const f = (t.s as unknown as { o: { factory: RunFactory } }).o.factory;
  const create = f.create.bind(f);
  const fork = f.fork.bind(f);
  f.create = async (s: RunSpec) => {
    await tick(ms);
    return create(s);
  };
  f.fork = async (...a: Parameters<RunFactory["fork"]>) => {
    await tick(ms);
    return fork(...a);
  };
}

describe("a run removed while it is being made", () => {
  it("is not added when removed before its turn (a step in flight) or while it is built; its id is free again", async () => {
    const t = setup({ ms: 30 });
    await t.s.addRun(spec("a"));
    const stepping = t.s.stepOnce(); // holds the queue: b waits for its turn
    const adding = t.s.addRun(spec("b"));
    t.s.removeRun("b");
    await Promise.all([stepping, adding]);
    expect(t.s.runIds).toEqual(["a"]);
    expect(t.made.map((r) => r.id)).toEqual(["a"]); // b was never built
    // Removed while its run is built: built, then freed, not added.
    slow(t);
    const again = t.s.addRun(spec("b"));
    await tick(5);
    t.s.removeRun("b");
    await again;
    expect(t.s.runIds).toEqual(["a"]);
    expect(t.made.find((r) => r.id === "b")?.destroyed).toBe(true);
    // The page gives the next run the lowest free id: "b" again, which must not collide.
    await t.s.addRun(spec("b"));
    expect(t.s.runIds).toEqual(["a", "b"]);
    t.log.length = 0;
    await t.s.stepOnce();
    expect(t.log.filter((l) => l.startsWith("b:"))).toHaveLength(1);
  });

  it("a removal of an id not being made leaves a later add of it alone", async () => {
    const t = setup();
    t.s.removeRun("x");
    await t.s.addRun(spec("x"));
    expect(t.s.runIds).toEqual(["x"]);
  });

  it("Reset: a run removed while another is made does not leave its neighbour without a run", async () => {
    const t = setup({ ms: 1 });
    for (const id of ["a", "b", "c"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    slow(t);
    const resetting = t.s.reset();
    await tick(5); // making a's run
    t.s.removeRun("a");
    await resetting;
    expect(t.s.runIds).toEqual(["b", "c"]);
    expect(t.s.runOf("b")).not.toBeNull();
    expect(t.s.runOf("c")).not.toBeNull();
    t.log.length = 0;
    await t.s.stepOnce();
    expect(t.log.map((l) => l.split(":")[0]).sort()).toEqual(["b", "c"]);
    // The run made for a (its removal came while it was built) was freed.
    await tick(5);
    for (const r of t.made.filter((r) => r.id === "a")) expect(r.destroyed).toBe(true);
  });

  it("recovery from a lost device rebuilds every run left, whatever is removed meanwhile", async () => {
    const t = setup({ ms: 1 });
    for (const id of ["a", "b", "c"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    const old = new Map(t.made.map((r) => [r.id, r]));
    t.s.halt();
    const rebuilt: string[] = [];
    const recovering = t.s.recover(
      async (s) => {
        await tick(20);
        rebuilt.push(s.id);
        return { run: new FakeRun(s.id, s.config, t.log), step: 0 };
      },
      () => ({ marker: "lost", notice: "lost" }),
    );
    await tick(5);
    t.s.removeRun("a");
    await recovering;
    expect(rebuilt).toEqual(["a", "b", "c"].filter((id) => id !== "a" || rebuilt.includes("a")));
    expect(rebuilt).toContain("b");
    expect(t.s.runOf("b")).not.toBe(old.get("b"));
    expect(old.get("b")?.destroyed).toBe(true);
    expect(t.s.runIds).toEqual(["b", "c"]);
  });

  it("a Reset sent while the device is re-acquired waits for the recovery, then starts every run over", async () => {
    const t = setup({ ms: 1 });
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    for (let i = 0; i < 3; i++) await t.s.stepOnce();
    t.s.halt();
    const order: string[] = [];
    const recovering = t.s.recover(
      async (s) => {
        order.push(`rebuild ${s.id}`);
        return { run: new FakeRun(s.id, s.config, t.log), step: 2 };
      },
      () => ({ marker: "lost", notice: "lost" }),
      true,
      async () => {
        await tick(30); // the page's Reset arrives while the device is being asked for
        order.push("device back");
        return null;
      },
    );
    await tick(5);
    const resetting = t.s.reset().then(() => order.push("reset"));
    await Promise.all([recovering, resetting]);
    expect(order).toEqual(["device back", "rebuild a", "rebuild b", "reset"]);
    expect(t.s.runIds.map((id) => t.s.stepOf(id))).toEqual([0, 0]);
    expect(t.s.runOf("a")).not.toBeNull();
  });

  it("no device back: every run is in error with the reason, and nothing is rebuilt", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    t.s.halt();
    let rebuilt = 0;
    await t.s.recover(
      async (s) => {
        rebuilt++;
        return { run: new FakeRun(s.id, s.config, t.log), step: 0 };
      },
      () => ({ marker: "lost", notice: "lost" }),
      true,
      async () => ({ error: "no GPU device could be had again" }),
    );
    expect(rebuilt).toBe(0);
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "error", error: "no GPU device could be had again" });
  });

  it("a Reset between an import's add (held) and its resume keeps the import: it resumes at its saved step", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    await t.s.stepOnce();
    await t.s.addRun(spec("imp"), false, true);
    const imported = t.s.runOf("imp");
    await t.s.reset();
    expect(t.s.stepOf("a")).toBe(0);
    expect(t.s.runOf("imp")).toBe(imported); // not rebuilt from the start model
    await t.s.resumeRun("imp", { step: 7, samples: 0, tokens: 0 }, async (r) => {
      (r as FakeRun).steps = 7; // its checkpoint's step count, as LabRuns.loadSaved sets it
      return null;
    });
    expect(t.s.stepOf("imp")).toBe(7);
    t.log.length = 0;
    await t.s.stepOnce();
    expect(t.log.map((l) => l.split(":")[0]).sort()).toEqual(["a", "imp"]);
    expect(t.s.stepOf("imp")).toBe(8);
  });

  it("the device lost again while the runs are rebuilt: no run in error, the next recovery rebuilds them", async () => {
    const t = setup({ ms: 1 });
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    t.s.halt();
    let lostAgain = true;
    const first = t.s.recover(
      async (s) => {
        if (s.id === "b" && lostAgain) throw new Error("DEVICE LOST"); // the replacement device died too
        return { run: new FakeRun(s.id, s.config, t.log), step: 0 };
      },
      () => ({ marker: "lost", notice: "lost" }),
    );
    // The second loss queues its own recovery (the worker's watch on the new device).
    t.s.halt();
    const second = t.s.recover(
      async (s) => {
        lostAgain = false;
        return { run: new FakeRun(s.id, s.config, t.log), step: 0 };
      },
      () => ({ marker: "lost", notice: "lost" }),
    );
    await Promise.all([first, second]);
    t.s.flush();
    expect(t.last("b")?.status).not.toBe("error");
    expect(t.s.runOf("b")).not.toBeNull();
    t.log.length = 0;
    await t.s.stepOnce();
    expect(t.log.map((l) => l.split(":")[0]).sort()).toEqual(["a", "b"]);
  });

  it("a fork whose source is removed meanwhile goes last, as the page adds it; a fork removed meanwhile is not added", async () => {
    const t = setup({ ms: 1 });
    for (const id of ["a", "b", "c"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    slow(t);
    const forking = t.s.forkRun("c", { ...spec("d"), forkOf: { id: "c", step: 1 } });
    await tick(5);
    t.s.removeRun("c");
    await forking;
    expect(t.s.runIds).toEqual(["a", "b", "d"]);
    const second = t.s.forkRun("a", { ...spec("e"), forkOf: { id: "a", step: 1 } });
    await tick(5);
    t.s.removeRun("e");
    await second;
    expect(t.s.runIds).toEqual(["a", "b", "d"]);
    expect(t.made.find((r) => r.id === "e")?.destroyed).toBe(true);
  });
});

describe("a run added held (an import with a checkpoint)", () => {
  it("is not stepped, by Play or Step, until resumeRun has loaded its state", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    await t.s.addRun(spec("b"), false, true);
    await t.s.stepOnce();
    expect(t.log).toEqual(["a:1"]);
    t.s.play();
    await tick(30);
    t.s.pause();
    await tick(10);
    expect(t.log.some((l) => l.startsWith("b:"))).toBe(false);
    await t.s.resumeRun("b", { step: 4, samples: 8, tokens: 32 }, (r) => {
      (r as FakeRun).steps = 4;
      return undefined;
    });
    t.log.length = 0;
    await t.s.stepOnce();
    expect(t.log).toContain("b:5");
  });
});

describe("adds, forks and removals that cross", () => {
  it("two adds of one id queued, then a removal: the run is not left in the list", async () => {
    const t = setup({ ms: 30 });
    await t.s.addRun(spec("a"));
    const stepping = t.s.stepOnce(); // holds the queue
    const first = t.s.addRun(spec("x")).catch((e) => e);
    const second = t.s.addRun(spec("x")).catch((e) => e); // overwrites making.get("x")
    t.s.removeRun("x"); // marks only the second add's mark
    await Promise.all([stepping, first, second]);
    // The user removed x: it must not be training hidden.
    expect(t.s.runIds).toEqual(["a"]);
  });

  it("a fork of a held run (import whose checkpoint is not in yet) does not step from the start model", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    await t.s.addRun(spec("b"), false, true); // held
    const forked = await t.s.forkRun("b", { ...spec("f"), forkOf: { id: "b", step: 0 } }).then(
      (s) => s,
      (e: unknown) => e,
    );
    t.log.length = 0;
    await t.s.stepOnce();
    // Either forking is refused while b is held, or the fork is held too; it must not train b's unrestored weights.
    expect(forked instanceof Error || !t.log.some((l) => l.startsWith("f:"))).toBe(true);
  });
});

describe("a Step or Play after settings changes still being prepared", () => {
  it("waits for them: its step trains with the settings as last chosen", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    let ready = () => {};
    const loading = new Promise<void>((r) => {
      ready = r;
    });
    const stepping = t.s.stepOnce(loading);
    await tick(20);
    expect(t.log).toEqual([]); // the reward model is still loading
    await t.s.setConfig("a", { beta: 0.3 });
    ready();
    await stepping;
    expect(t.log).toEqual(["a:1"]);
    expect((t.s.runOf("a") as FakeRun).trainedWith?.beta).toBe(0.3);
    // Play: no step before the changes are in; Pause meanwhile holds.
    let go = () => {};
    t.s.play(new Promise<void>((r) => (go = r)));
    await tick(20);
    expect(t.log).toEqual(["a:1"]);
    t.s.pause();
    go();
    await tick(20);
    expect(t.log).toEqual(["a:1"]);
  });
});
