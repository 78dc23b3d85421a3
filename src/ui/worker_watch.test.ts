/**
 * The watch on a started training worker (./worker_watch.ts): a worker that answers is never called silent; one
 * that stops answering (self.close(), a crash: no event) is, after SILENT_TICKS unanswered checks, and given back
 * if it answers after all; a rejected call is an answer; an uncaught error reaches onError with its message.
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
    const stop = watchWorker(fakeWorker(), async () => pings++, {
      onError: () => {},
      onSilent: silent,
      onBack: () => {},
    });
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * SILENT_TICKS * 5);
    expect(silent).not.toHaveBeenCalled();
    expect(pings).toBeGreaterThanOrEqual(SILENT_TICKS * 2);
    stop();
  });

  it("a worker that stops answering is silent after SILENT_TICKS unanswered checks, once", async () => {
    const silent = vi.fn();
    let answering = true;
    const back = vi.fn();
    let hang: (v: boolean) => void = () => {};
    const stop = watchWorker(
      fakeWorker(),
      () => (answering ? Promise.resolve(true) : new Promise<boolean>((r) => (hang = r))),
      { onError: () => {}, onSilent: silent, onBack: back },
    );
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * 3);
    answering = false;
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * SILENT_TICKS);
    expect(silent).not.toHaveBeenCalled(); // the ping sent at the first silent check has had SILENT_TICKS − 1 checks
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS);
    expect(silent).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * SILENT_TICKS * 2);
    expect(silent).toHaveBeenCalledTimes(1);
    expect(back).not.toHaveBeenCalled();
    // It was only busy: its answer comes after all, and the lab is given back (once).
    answering = true;
    hang(true);
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * 3);
    expect(back).toHaveBeenCalledTimes(1);
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
      { onError: () => {}, onSilent: silent, onBack: () => {} },
    );
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * SILENT_TICKS * 6);
    expect(silent).not.toHaveBeenCalled();
    expect(n).toBeGreaterThan(4);
    stop();
  });

  it("an uncaught error in the worker reaches onError with its message; the watch stops with stop()", async () => {
    const errors: string[] = [];
    const w = fakeWorker();
    const stop = watchWorker(w, async () => true, {
      onError: (m) => errors.push(m),
      onSilent: () => {},
      onBack: () => {},
    });
    expect(w.dispatch("Uncaught Error: boom")).toBe(true);
    expect(errors).toEqual(["Uncaught Error: boom"]);
    stop();
    w.dispatch("after");
    expect(errors).toHaveLength(1);
  });
});

describe("workerWatch: the page's answers", () => {
  it("silent: the lab's error, and the worker's calls say why; back: the lab as it was, with a notice", async () => {
    const { notReady, WORKER_SILENT, workerWatch } = await import("./client_worker");
    const { useLab } = await import("./lab_store");
    useLab.getState().setPhase("ready");
    const w = workerWatch(() => true);
    const { usePipelineStore } = await import("./lab/pipeline_store");
    usePipelineStore.getState().begin("sft");
    w.onSilent();
    expect(useLab.getState().phase).toBe("error");
    expect(usePipelineStore.getState().sft).toMatchObject({
      status: "error",
      error: "the training worker stopped answering",
    });
    expect(useLab.getState().phaseError).toBe(WORKER_SILENT);
    expect(notReady(useLab.getState().phaseError).message).toBe("the training worker stopped answering");
    w.onBack();
    expect(useLab.getState().phase).toBe("ready");
    expect(useLab.getState().notice).toMatch(/answers again/);
    expect(useLab.getState().saveFailed).toBeNull();
    // A start that failed for another reason is not undone by a late answer.
    useLab.getState().setPhase("error", "no GPU");
    w.onBack();
    expect(useLab.getState().phase).toBe("error");
    expect(notReady("no GPU").message).toMatch(/not ready yet/);
  });
});
