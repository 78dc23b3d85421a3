/**
 * ONNX reward models kept at arm's length: each model lives in a worker of its own (./rm_worker.ts), and every
 * call to it has a time limit. A model that computes past the limit — a crafted file of a few KB can chain
 * 4096×4096 matrix products or expand a tensor to gigabytes — has its worker ended: its work stops, its memory
 * is given back, and the caller gets an {@link OnnxRewardModelError} of kind "timeout" that says so. Training,
 * in the calling worker, is never blocked (onnxruntime-web's WASM runs synchronously in the worker it is in).
 */
import { OnnxRewardModelError, type OnnxRewardModelErrorKind } from "../rewards/onnx_rm_error";
import { inspectOnnxRewardModel } from "../rewards/onnx_rm_inspect";
import { explainWasmBlocked } from "./csp_blocked";
import type { OnnxLoader } from "./reward_sources";
import type { RmLoaded, RmWorkerApi } from "./rm_worker_api";

/** A started reward-model worker. */
export interface RmWorkerHandle {
  /** Its API (a comlink proxy in the page; the object itself in tests). */
  readonly api: RmWorkerApi;
  /** End the worker now (its work stops, its memory goes). */
  terminate(): void;
  /** Register the callback for the worker dying on its own (an uncaught error, out of memory). */
  onCrash(cb: (reason: string) => void): void;
}

/** Time limits (milliseconds) of the calls to a reward model. */
export interface RmTimeLimits {
  /** Start onnxruntime-web in the fresh worker (its WASM compiled, fetched too without `runtime`): not the model's time. */
  startMs: number;
  /** Build the session and score the probe batch (loadOnnxRewardModel), in a fresh worker. */
  loadMs: number;
  /** Score one batch (≤ 32 rows, onnxReward's maxRows). */
  runMs: number;
}

/**
 * The lab's limits: 30 s to load and check the model and 20 s to score a batch, once onnxruntime-web has started
 * in the fresh worker (up to 2 min: fetching and compiling its WASM took 1–59 s on a busy 2-core machine). The
 * lab's reward models score a batch in milliseconds; a model past these is one the lab cannot train with anyway.
 */
export const RM_TIME_LIMITS: RmTimeLimits = { startMs: 120_000, loadMs: 30_000, runMs: 20_000 };

/**
 * An OnnxLoader that loads each model in a worker of its own from `spawn`, with time limits on every call.
 * The model's `release()` ends its worker once no call is in flight. A call past its limit ends the worker and
 * rejects with kind "timeout"; every later call to that model rejects at once, saying why.
 * The file's checks that need no runtime (inspectOnnxRewardModel) run first, before any worker starts; then
 * `runtime` (when given) brings onnxruntime-web's WASM bytes, with no time limit (a download: the page shows its
 * progress and a stall), and each worker compiles them within `limits.startMs`.
 * @throws (the loader) whatever the model's load throws, as loadOnnxRewardModel would; whatever `runtime`
 * throws; OnnxRewardModelError "timeout" past `limits.loadMs`, "runtime" when the worker dies; RewardSourceError
 * when the site's Content-Security-Policy refuses onnxruntime's WebAssembly (./csp_blocked.ts).
 */
export function isolatedOnnxLoader(
  spawn: () => RmWorkerHandle,
  limits: RmTimeLimits = RM_TIME_LIMITS,
  runtime?: () => Promise<ArrayBuffer>,
): OnnxLoader {
  return async (bytes, vocabSize, padId) => {
    // The file's own checks first, here: a broken file is refused at once, not after a worker and onnxruntime
    // started only to refuse it (4–43 s of "Checking…" for an empty file on a busy 2-core machine).
    inspectOnnxRewardModel(bytes, vocabSize);
    // Posting it to the worker clones it (not transferred): the download stays here for the next model.
    const wasm = runtime ? await runtime() : undefined;
    const w = new IsolatedModel(spawn());
    let info: RmLoaded;
    try {
      await w
        .call({ now: "start onnxruntime-web", later: "start" }, limits.startMs, (api) => api.ready(wasm))
        .catch((e) => {
          throw e instanceof OnnxRewardModelError && e.kind === "timeout"
            ? new OnnxRewardModelError(
                "timeout",
                `onnxruntime-web did not start within ${limits.startMs / 1000} s${wasm ? " of its download" : ""} (the page is busy: pause the runs, then load the file or choose the reward model again)`,
              )
            : e;
        });
      info = await w.call({ now: "load and check", later: "load and check" }, limits.loadMs, (api) =>
        api.load(bytes, vocabSize, padId),
      );
    } catch (e) {
      w.end("its load failed", "runtime");
      throw explainWasmBlocked(e); // a site's policy that refuses WebAssembly: said for whoever hosts the lab
    }
    return {
      ...info,
      run: (ids, mask, B, T) =>
        w.call(
          { now: `score a batch of ${B} sequences of ${T} tokens`, later: "score a batch" },
          limits.runMs,
          (api) => api.run(Int32Array.from(ids), Uint8Array.from(mask), B, T),
        ),
      release: async () => w.releaseWhenIdle(),
      get stopped() {
        return w.stopped;
      },
    };
  };
}

/** What a call does, in words: for its own error (`now`) and for the calls refused after it (`later`). */
interface Task {
  now: string;
  later: string;
}

/** One worker's calls: in flight, ended and why. */
class IsolatedModel {
  private pending = 0;
  private ended: { why: string; kind: OnnxRewardModelErrorKind } | null = null;
  private releasing = false;
  /** Rejects when the worker is ended (a time limit, a crash): the calls still in flight fail with it. */
  private readonly stoppedNow: Promise<never>;
  private stop: (e: OnnxRewardModelError) => void = () => undefined;

  constructor(private readonly h: RmWorkerHandle) {
    this.stoppedNow = new Promise<never>((_, reject) => {
      this.stop = reject;
    });
    this.stoppedNow.catch(() => undefined);
    h.onCrash((reason) => {
      const why = `its worker stopped (${reason || "an error outside any call"})`;
      this.end(why, "runtime", new OnnxRewardModelError("runtime", `the reward model failed: ${why}`));
    });
  }

  /** Why the worker was ended before its release (a time limit, a crash), or null. */
  get stopped(): string | null {
    return this.ended && !this.releasing ? this.ended.why : null;
  }

  /** Run `f` on the worker within `ms`, or end the worker. */
  async call<T>(task: Task, ms: number, f: (api: RmWorkerApi) => Promise<T>): Promise<T> {
    if (this.ended)
      throw new OnnxRewardModelError(
        this.ended.kind,
        `the reward model was stopped earlier: ${this.ended.why}`,
      );
    this.pending++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // This call's own words first; the other calls in flight get the worker's end.
        reject(
          new OnnxRewardModelError(
            "timeout",
            `the reward model took longer than ${ms / 1000} s to ${task.now}, so the lab stopped it`,
          ),
        );
        this.end(`it took longer than ${ms / 1000} s to ${task.later}`, "timeout");
      }, ms);
    });
    try {
      return await Promise.race([
        f(this.h.api).catch((e) => Promise.reject(revived(e))),
        late,
        this.stoppedNow,
      ]);
    } finally {
      clearTimeout(timer);
      this.pending--;
      if (this.releasing && this.pending === 0) this.end("it was released", "runtime");
    }
  }

  /** End the worker once no call is in flight. */
  releaseWhenIdle(): void {
    this.releasing = true;
    if (this.pending === 0) this.end("it was released", "runtime");
  }

  /** End the worker now; calls in flight reject with `error` (default: "was stopped", naming why). */
  end(why: string, kind: OnnxRewardModelErrorKind, error?: OnnxRewardModelError): void {
    if (this.ended) return;
    this.ended = { why, kind };
    this.h.terminate();
    this.stop(error ?? new OnnxRewardModelError(kind, `the reward model was stopped: ${why}`));
  }
}

const KINDS = new Set<string>([
  "not-onnx",
  "inputs",
  "input-dtype",
  "outputs",
  "output-dtype",
  "output-shape",
  "vocab",
  "ops",
  "session",
  "runtime",
  "timeout",
] satisfies OnnxRewardModelErrorKind[]);

/**
 * The worker's error as the loader would have thrown it here: comlink carries an Error's name and message
 * ("<kind>: <what>"), not its class.
 */
function revived(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  if (e.name === "OnnxRewardModelError") {
    const m = /^([a-z-]+): ([\s\S]*)$/.exec(e.message);
    if (m && KINDS.has(m[1])) return new OnnxRewardModelError(m[1] as OnnxRewardModelErrorKind, m[2]);
  }
  if (e.name === "RangeError") return new RangeError(e.message);
  return e;
}
