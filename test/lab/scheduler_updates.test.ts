/**
 * The scheduler's speed and its updates to the page, with fake runs (no GPU): the per-run speed cap, points with
 * cumulative samples/tokens, batching per flush interval, and waiting for the page's acknowledgement.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunUpdate } from "../../src/lab/protocol";
import { Scheduler } from "../../src/lab/scheduler";
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
});
