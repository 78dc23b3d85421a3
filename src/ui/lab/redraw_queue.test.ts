import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DONE_TIMEOUT_MS, GAP_MS, nextJob, PRIORITY_MS, queuedRedraws, scheduleRedraw } from "./redraw_queue";

describe("nextJob", () => {
  it("picks a due job: lowest priority first, then the one queued first", () => {
    const jobs = [
      { due: 0, priority: 1, seq: 0 },
      { due: 5, priority: 0, seq: 1 },
      { due: 0, priority: 0, seq: 3 },
      { due: 0, priority: 0, seq: 2 },
      { due: 50, priority: 0, seq: 4 },
    ];
    expect(nextJob(jobs, 10)).toBe(jobs[3]);
    expect(nextJob(jobs.slice(0, 2), 10)).toBe(jobs[1]);
    expect(nextJob(jobs.slice(0, 1), 1)).toBe(jobs[0]);
    expect(nextJob([jobs[4]], 10)).toBeNull();
  });
  it("lets a lower priority through once it has waited PRIORITY_MS longer (no starvation)", () => {
    const small = { due: 0, priority: 1, seq: 0 };
    const main = { due: PRIORITY_MS - 1, priority: 0, seq: 1 };
    expect(nextJob([small, main], PRIORITY_MS)).toBe(main);
    expect(nextJob([small, { ...main, due: PRIORITY_MS + 1 }], PRIORITY_MS + 1)).toBe(small);
  });
});

describe("the redraw queue", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "queueMicrotask"] });
  });
  afterEach(() => {
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it("runs one redraw at a time, main charts first, the next only after done + a gap", async () => {
    const log: string[] = [];
    const dones: Record<string, () => void> = {};
    const job = (name: string) => (done: () => void) => {
      log.push(name);
      dones[name] = done;
    };
    const cancelSmall = scheduleRedraw(0, 1, job("small"));
    scheduleRedraw(0, 0, job("reward"));
    scheduleRedraw(0, 0, job("kl"));
    expect(log).toEqual([]); // never inside scheduleRedraw
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(["reward"]);
    await vi.advanceTimersByTimeAsync(500);
    expect(log).toEqual(["reward"]); // still waiting for reward's done
    dones.reward();
    dones.reward(); // twice is harmless
    await vi.advanceTimersByTimeAsync(GAP_MS - 1);
    expect(log).toEqual(["reward"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(["reward", "kl"]);
    cancelSmall();
    dones.kl();
    await vi.advanceTimersByTimeAsync(GAP_MS);
    expect(log).toEqual(["reward", "kl"]);
    expect(queuedRedraws()).toBe(0);
  });

  it("waits for a job's delay, and a redraw that never says done frees the queue after the timeout", async () => {
    const log: string[] = [];
    scheduleRedraw(0, 0, () => log.push("lost"));
    scheduleRedraw(300, 0, () => log.push("later"));
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(["lost"]);
    await vi.advanceTimersByTimeAsync(DONE_TIMEOUT_MS - 1);
    expect(log).toEqual(["lost"]);
    await vi.advanceTimersByTimeAsync(1 + GAP_MS);
    expect(log).toEqual(["lost", "later"]);
  });
});
