/** The scheduler passes on where a slow step is (RunUpdate.progress) and clears it when the step ends. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveProgress, StepProgress } from "../../src/lab/protocol";
import { type FakeRun, setup, spec, tick, until } from "./sched_fakes";

const STAGES: StepProgress[] = [
  { stage: "sampling", done: 0, total: 16 },
  { stage: "sampling", done: 8, total: 16 },
  { stage: "scoring", done: 0, total: 0 },
  { stage: "update", done: 0, total: 2 },
  { stage: "update", done: 1, total: 2 },
];

/** The stage of a sent progress, without its time. */
const stageOf = (p: LiveProgress | null | undefined): StepProgress | null | undefined => {
  if (!p) return p;
  const { elapsedMs: _, ...rest } = p;
  return rest;
};

/** Stages of STAGES in their order (a subsequence), then null; the step's time never goes back. */
const inOrder = (sent: (LiveProgress | null | undefined)[]) => {
  const idx = sent
    .slice(0, -1)
    .map((p) => STAGES.findIndex((x) => JSON.stringify(x) === JSON.stringify(stageOf(p))));
  const times = sent.flatMap((p) => (p ? [p.elapsedMs] : []));
  return (
    sent.at(-1) === null &&
    idx.every((i, k) => i >= 0 && (k === 0 || i > idx[k - 1])) &&
    times.every((t, k) => t >= 0 && (k === 0 || t >= times[k - 1]))
  );
};

describe("Scheduler: a step's progress", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends each stage of a slow step, then null with the step's point; nothing for other runs", async () => {
    const t = setup({ progressAfterMs: 0, ms: 3 });
    await t.s.addRun(spec("a"));
    await t.s.addRun(spec("b"));
    (t.made[0] as FakeRun).stages = STAGES;
    await t.s.stepOnce();
    await tick(20);
    const a = t.all().filter((u) => u.runId === "a" && u.progress !== undefined);
    const sent = a.map((u) => u.progress);
    console.log(
      `progress sent for a: ${sent.map((p) => (p ? `${p.stage} ${p.done}/${p.total}` : "null")).join(", ")}`,
    );
    // The stages reach the page in order (an update carries the latest: one that came and went between two
    // flushes may be skipped), the last stage among them, then null in the update that carries step 1's point.
    expect(inOrder(sent)).toBe(true);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(sent.slice(-2).map(stageOf)).toEqual([STAGES[4], null]);
    const end = a.at(-1);
    expect(end?.points.map((p) => p.step)).toEqual([1]);
    expect(a.slice(0, -1).every((u) => u.status === "finishing" && u.step === 0)).toBe(true);
    // Run b reports no stages, so it never sends a progress (not even null).
    expect(t.all().some((u) => u.runId === "b" && u.progress !== undefined)).toBe(false);
    // The next step starts over: its first stage is sent again.
    const before = t.all().length;
    await t.s.stepOnce();
    await tick(20);
    const next = t
      .all()
      .slice(before)
      .filter((u) => u.runId === "a" && u.progress !== undefined)
      .map((u) => u.progress);
    expect(inOrder(next)).toBe(true);
    expect(next.slice(-2).map(stageOf)).toEqual([STAGES[4], null]);
  });

  it("a step shorter than progressAfterMs (default 1 s) sends no progress at all", async () => {
    const t = setup({ ms: 2 });
    await t.s.addRun(spec("a"));
    (t.made[0] as FakeRun).stages = STAGES;
    t.s.play();
    await until(() => t.log.length >= 3);
    t.s.pause();
    await tick(30);
    expect(t.all().length).toBeGreaterThan(0);
    expect(t.all().some((u) => u.progress !== undefined)).toBe(false);
  });

  it("a step that turns slow starts reporting after progressAfterMs (fake clocks)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
    const t = setup({ ms: 600 }); // each stage 600 ms: the second is in flight at the 1 s mark
    await t.s.addRun(spec("a"));
    (t.made[0] as FakeRun).stages = STAGES;
    const done = t.s.stepOnce();
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    const sent = t.all().flatMap((u) => (u.progress === undefined ? [] : [u.progress]));
    // The stage in flight at 1 s shows then (not only when the next one starts), and every one after it, each
    // with the time the step had run when its update was built (the flush, a timer of 0 ms: 1 ms later).
    expect(sent).toEqual([
      { ...STAGES[1], elapsedMs: 1001 },
      { ...STAGES[2], elapsedMs: 1201 },
      { ...STAGES[3], elapsedMs: 1801 },
      { ...STAGES[4], elapsedMs: 2401 },
      null,
    ]);
  });

  it("a step that fails clears its progress; the run is in error", async () => {
    const t = setup({ progressAfterMs: 0, ms: 2 });
    await t.s.addRun(spec("a"));
    const run = t.made[0] as FakeRun;
    run.stages = STAGES.slice(0, 2);
    run.failAt = 1;
    await t.s.stepOnce();
    await tick(20);
    const last = t.last("a");
    expect(last?.status).toBe("error");
    const sent = t.all().flatMap((u) => (u.progress === undefined ? [] : [u.progress]));
    expect(sent.at(-1)).toBeNull();
  });
});
