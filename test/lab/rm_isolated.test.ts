/**
 * Reward models at arm's length (src/lab/rm_isolated.ts): each in a worker of its own, every call with a time
 * limit. Here the worker is in-process (the real worker API over loadOnnxRewardModel, its messages cloned and
 * its errors carried as comlink carries them: name and message, no class); a hung call is one that never
 * settles. That the browser really ends a busy worker is the e2e's (e2e/rewards.spec.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { isolatedOnnxLoader, type RmWorkerHandle } from "../../src/lab/rm_isolated";
import { createRmWorkerApi, type RmWorkerApi } from "../../src/lab/rm_worker_api";
import { loadOnnxRewardModel, OnnxRewardModelError } from "../../src/rewards/onnx_reward_model";
import { toyModel, V } from "../helpers/toy_rm";

/** What comlink delivers of a thrown error: an Error with the thrower's name and message. */
const asComlink = (e: unknown) =>
  Object.assign(new Error((e as Error).message), { name: (e as Error).name, stack: "" });

interface Fake extends RmWorkerHandle {
  terminated: number;
  crash(reason: string): void;
}

/**
 * An in-process reward-model worker; `hang.load` makes its load never answer, `startMs` its runtime start take
 * that long (tests replace `api.run`).
 */
function fakeWorker(hang: { load?: boolean; start?: boolean } = {}, startMs = 0): Fake {
  const real = createRmWorkerApi(
    (bytes, vocab, padId) => loadOnnxRewardModel(bytes, vocab, { padId }),
    () => new Promise((r) => setTimeout(r, startMs)),
  );
  const never = new Promise<never>(() => undefined);
  const api: RmWorkerApi = {
    ready: () => (hang.start ? never : real.ready()),
    load: (...a) =>
      hang.load ? never : real.load(...structuredClone(a)).catch((e) => Promise.reject(asComlink(e))),
    run: (...a) => real.run(...structuredClone(a)).catch((e) => Promise.reject(asComlink(e))),
  };
  let onCrash: (reason: string) => void = () => undefined;
  const fake: Fake = {
    api,
    terminated: 0,
    terminate: () => {
      fake.terminated++;
    },
    onCrash: (cb) => {
      onCrash = cb;
    },
    crash: (reason) => onCrash(reason),
  };
  return fake;
}

/** Generous limits where a real model loads (onnxruntime-web's first load in a busy process takes ~1 s). */
const LIMITS = { startMs: 60_000, loadMs: 60_000, runMs: 60_000 };
const ROWS = { ids: [0, 3, 5, 11, 11, 11], mask: [0, 1, 1, 1, 1, 1] };

async function rejection(p: Promise<unknown>): Promise<OnnxRewardModelError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, "expected an OnnxRewardModelError").toBeInstanceOf(OnnxRewardModelError);
  console.log((e as Error).message);
  return e as OnnxRewardModelError;
}

describe("isolatedOnnxLoader: a reward model in a worker of its own, with time limits", () => {
  it("loads and scores as the loader does in-process; the worker's errors keep their kind", async () => {
    const w = fakeWorker();
    const rm = await isolatedOnnxLoader(() => w, LIMITS)(toyModel(), V, 0);
    expect([rm.vocabSize, rm.maxLength, rm.warnings]).toEqual([V, null, []]);
    const s = await rm.run(ROWS.ids, ROWS.mask, 2, 3);
    expect(Array.from(s, (v) => Math.round(v * 1e4) / 1e4)).toEqual([0.8, 3.3]);

    // What the file shows without a runtime is refused before any worker starts (an empty file took seconds).
    let spawned = 0;
    const e = await rejection(
      isolatedOnnxLoader(() => {
        spawned++;
        return fakeWorker();
      }, LIMITS)(toyModel({ outName: "logits" }), V, 0),
    );
    expect(e.kind).toBe("outputs");
    expect(e.message).toMatch(/^outputs: the model must have one output named scores/);
    expect(spawned, "no worker for a file its checks refuse").toBe(0);
    // onnxruntime's own refusal comes back from the worker with its kind, and that worker is ended.
    const bad = fakeWorker();
    (bad.api as { load: RmWorkerApi["load"] }).load = () =>
      Promise.reject(
        asComlink(new OnnxRewardModelError("session", "onnxruntime-web cannot load the model: x")),
      );
    const s2 = await rejection(isolatedOnnxLoader(() => bad, LIMITS)(toyModel(), V, 0));
    expect(s2.kind).toBe("session");
    expect(bad.terminated, "a worker whose load failed is ended").toBe(1);
    expect(w.terminated).toBe(0);
    await rm.release();
    expect(w.terminated).toBe(1);
  });

  it("a load past its limit ends the worker: kind timeout, saying so", async () => {
    const w = fakeWorker({ load: true });
    const t0 = performance.now();
    const e = await rejection(isolatedOnnxLoader(() => w, { ...LIMITS, loadMs: 300 })(toyModel(), V, 0));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(295);
    expect(e.kind).toBe("timeout");
    expect(e.message).toMatch(
      /^timeout: the reward model took longer than 0\.3 s to load and check, so the lab stopped it$/,
    );
    expect(w.terminated).toBe(1);
  });

  it("starting the runtime has a limit of its own: the model's load limit counts the model's work only", async () => {
    // The start takes 0.6 s longer than the load limit, 4 s (a real onnxruntime-web session: ~0.3 s, the first of
    // a process ~2 s on a busy 2-core machine): counted in the load's limit, the start alone would time it out.
    const slowStart = fakeWorker({}, 4600);
    const t0 = performance.now();
    const rm = await isolatedOnnxLoader(() => slowStart, { ...LIMITS, startMs: 60_000, loadMs: 4000 })(
      toyModel(),
      V,
      0,
    );
    expect(performance.now() - t0, "the start's time").toBeGreaterThanOrEqual(4595);
    expect(rm.vocabSize).toBe(V);
    const stuck = fakeWorker({ start: true });
    const e = await rejection(isolatedOnnxLoader(() => stuck, { ...LIMITS, startMs: 200 })(toyModel(), V, 0));
    expect(e.message).toBe(
      "timeout: onnxruntime-web did not start within 0.2 s (the page is busy: pause the runs, then load the file or choose the reward model again)",
    );
    expect(stuck.terminated).toBe(1);
  });

  it("a batch past its limit ends the worker; every later call is refused at once, naming why", async () => {
    const w2 = fakeWorker();
    const rm2 = await isolatedOnnxLoader(() => w2, { ...LIMITS, runMs: 200 })(toyModel(), V, 0);
    (w2.api as { run: RmWorkerApi["run"] }).run = () => new Promise<never>(() => undefined);
    const e = await rejection(rm2.run(ROWS.ids, ROWS.mask, 2, 3));
    expect(e.kind).toBe("timeout");
    expect(e.message).toMatch(
      /^timeout: the reward model took longer than 0\.2 s to score a batch of 2 sequences of 3 tokens, so the lab stopped it$/,
    );
    expect(w2.terminated).toBe(1);
    // Refused at once: before any timer (a macrotask) can run, however busy the machine.
    const refused = rejection(rm2.run(ROWS.ids, ROWS.mask, 2, 3));
    const waiting = new Promise<"still waiting">((r) => setTimeout(() => r("still waiting"), 0));
    expect(await Promise.race([refused.then(() => "refused"), waiting])).toBe("refused");
    const again = await refused;
    expect(again.message).toBe(
      "timeout: the reward model was stopped earlier: it took longer than 0.2 s to score a batch",
    );
    expect(rm2.stopped).toBe("it took longer than 0.2 s to score a batch");
    await rm2.release();
    expect(w2.terminated, "ended once").toBe(1);
  });

  it("a call that times out ends the worker for the calls in flight too: they fail at once, saying why", async () => {
    const w = fakeWorker();
    const rm = await isolatedOnnxLoader(() => w, { ...LIMITS, runMs: 300 })(toyModel(), V, 0);
    (w.api as { run: RmWorkerApi["run"] }).run = () => new Promise<never>(() => undefined);
    // The model is loaded (real timers: onnxruntime-web's start); the limits from here on run on a fake clock,
    // so a busy machine cannot make the order of events look different.
    vi.useFakeTimers();
    try {
      const first = rejection(rm.run(ROWS.ids, ROWS.mask, 2, 3));
      await vi.advanceTimersByTimeAsync(150);
      let failedAt: number | null = null;
      const second = rejection(rm.run(ROWS.ids, ROWS.mask, 2, 3)).then((e) => {
        failedAt = Date.now();
        return e;
      });
      const asked = Date.now();
      // The first's 0.3 s end 150 ms after the second was sent; the second's own would end at 300 ms.
      await vi.advanceTimersByTimeAsync(250);
      expect((await first).message).toMatch(/took longer than 0\.3 s to score a batch of 2 sequences/);
      expect(failedAt, "the second failed with the first, not after its own 0.3 s").not.toBeNull();
      expect((failedAt ?? Number.NaN) - asked).toBe(150);
      const e = await second;
      expect(e.message).toBe(
        "timeout: the reward model was stopped: it took longer than 0.3 s to score a batch",
      );
      expect(w.terminated).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a worker that dies fails the call in flight, not the caller", async () => {
    const w = fakeWorker();
    const rm = await isolatedOnnxLoader(() => w, LIMITS)(toyModel(), V, 0);
    (w.api as { run: RmWorkerApi["run"] }).run = () => new Promise<never>(() => undefined);
    const call = rm.run(ROWS.ids, ROWS.mask, 2, 3);
    w.crash("Uncaught RangeError: WebAssembly.Memory(): could not allocate memory");
    const e = await rejection(call);
    expect(e.kind).toBe("runtime");
    expect(e.message).toMatch(/its worker stopped \(Uncaught RangeError: WebAssembly\.Memory/);
    expect(rm.stopped).toMatch(/^its worker stopped/);
    expect((await rejection(rm.run(ROWS.ids, ROWS.mask, 2, 3))).kind, "a crash is no timeout").toBe(
      "runtime",
    );
  });

  it("release ends the worker once the call in flight is done, not during it", async () => {
    const w = fakeWorker();
    const rm = await isolatedOnnxLoader(() => w, LIMITS)(toyModel(), V, 0);
    let answer: (v: Float64Array) => void = () => undefined;
    (w.api as { run: RmWorkerApi["run"] }).run = () => new Promise((r) => (answer = r));
    const call = rm.run(ROWS.ids, ROWS.mask, 2, 3);
    await rm.release();
    expect(w.terminated).toBe(0);
    answer(Float64Array.of(1, 2));
    expect(Array.from(await call)).toEqual([1, 2]);
    expect(w.terminated).toBe(1);
    expect((await rejection(rm.run(ROWS.ids, ROWS.mask, 2, 3))).message).toMatch(/it was released/);
  });

  it("a RangeError from the worker (a batch longer than max_length) stays a RangeError", async () => {
    const w = fakeWorker();
    const rm = await isolatedOnnxLoader(() => w, LIMITS)(toyModel(), V, 0);
    (w.api as { run: RmWorkerApi["run"] }).run = () =>
      Promise.reject(asComlink(new RangeError("a [2, 9] batch is longer than the model's max_length 8")));
    await expect(rm.run(ROWS.ids, ROWS.mask, 2, 3)).rejects.toThrow(RangeError);
  });
});

describe("the busy model the e2e loads (test/helpers/toy_rm.ts busyWork)", () => {
  it("is a valid reward model: small products load and score as the plain toy does; its file is a few KB", async () => {
    const bytes = toyModel({ busyWork: { products: 2, size: 8 } });
    const rm = await loadOnnxRewardModel(bytes, V);
    const s = await rm.run(ROWS.ids, ROWS.mask, 2, 3);
    expect(Array.from(s, (v) => Math.round(v * 1e4) / 1e4)).toEqual([0.8, 3.3]);
    await rm.release();
    const perToken = await loadOnnxRewardModel(toyModel({ busyPerToken: { products: 2, perToken: 2 } }), V);
    expect(
      Array.from(await perToken.run(ROWS.ids, ROWS.mask, 2, 3), (v) => Math.round(v * 1e4) / 1e4),
    ).toEqual([0.8, 3.3]);
    await perToken.release();
    const huge = toyModel({ busyWork: { products: 60, size: 4096 } });
    console.log(`60 products of 4096² in a ${huge.length}-byte file`);
    expect(huge.length).toBeLessThan(8192);
  });
});
