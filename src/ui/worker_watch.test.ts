/**
 * The watch on a started training worker (./worker_watch.ts): a worker that answers is never called silent; one
 * that stops answering (self.close(), a crash: no event) is, after SILENT_TICKS unanswered checks; a rejected
 * call is an answer; an uncaught error reaches onError with its message.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SILENT_TICKS, WATCH_EVERY_MS, watchWorker } from "./worker_watch";

function fakeWorker() {
  const target = new EventTarget();
  return {
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    dispatch: (message: string) => {
      const ev = new Event("error", { cancelable: true }) as Event & { message: string };
      ev.message = message;
      target.dispatchEvent(ev);
      return ev.defaultPrevented;
    },
  };
}

describe("watchWorker", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a worker that answers every ping is never silent", async () => {
    const silent = vi.fn();
    let pings = 0;
    const stop = watchWorker(fakeWorker(), async () => pings++, { onError: () => {}, onSilent: silent });
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * SILENT_TICKS * 5);
    expect(silent).not.toHaveBeenCalled();
    expect(pings).toBeGreaterThanOrEqual(SILENT_TICKS * 2);
    stop();
  });

  it("a worker that stops answering is silent after SILENT_TICKS unanswered checks, once", async () => {
    const silent = vi.fn();
    let answering = true;
    const stop = watchWorker(
      fakeWorker(),
      () => (answering ? Promise.resolve(true) : new Promise(() => {})),
      { onError: () => {}, onSilent: silent },
    );
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * 3);
    answering = false;
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * SILENT_TICKS);
    expect(silent).not.toHaveBeenCalled(); // the ping sent at the first silent check has had SILENT_TICKS − 1 checks
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS);
    expect(silent).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * SILENT_TICKS * 2);
    expect(silent).toHaveBeenCalledTimes(1);
    stop();
  });

  it("a slow answer (under SILENT_TICKS checks) or a rejection is an answer", async () => {
    const silent = vi.fn();
    let n = 0;
    const stop = watchWorker(
      fakeWorker(),
      () => {
        n++;
        if (n % 2) return Promise.reject(new Error("refused"));
        return new Promise((r) => setTimeout(r, WATCH_EVERY_MS * (SILENT_TICKS - 1)));
      },
      { onError: () => {}, onSilent: silent },
    );
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * SILENT_TICKS * 6);
    expect(silent).not.toHaveBeenCalled();
    expect(n).toBeGreaterThan(4);
    stop();
  });

  it("an uncaught error in the worker reaches onError with its message; the watch stops with stop()", async () => {
    const errors: string[] = [];
    const w = fakeWorker();
    const stop = watchWorker(w, async () => true, { onError: (m) => errors.push(m), onSilent: () => {} });
    expect(w.dispatch("Uncaught Error: boom")).toBe(true);
    expect(errors).toEqual(["Uncaught Error: boom"]);
    stop();
    w.dispatch("after");
    expect(errors).toHaveLength(1);
  });
});
