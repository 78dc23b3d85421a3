/**
 * A reward-model worker whose script does not load (a page opened before the lab was updated on its server asks
 * for a file the server no longer has; or no network): the load fails saying so and what to do, not "an error
 * outside any call" (the upgrade reviewer's old tab).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SCRIPT_NOT_LOADED, workerOnnxLoader } from "../../src/lab/ort_loader";
import { RewardSourceError } from "../../src/lab/reward_sources";
import { OnnxRewardModelError } from "../../src/rewards/onnx_rm_error";
import { toyModel, V } from "../helpers/toy_rm";

/** A Worker whose module script 404s: it fires a bare "error" Event, as Chrome does, and never answers. */
class UnloadableWorker extends EventTarget {
  static made = 0;
  terminated = false;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    super();
    UnloadableWorker.made++;
    setTimeout(() => this.dispatchEvent(new Event("error")), 10);
  }
  postMessage(): void {}
  terminate(): void {
    this.terminated = true;
  }
}

afterEach(() => vi.unstubAllGlobals());

/** onnxruntime's WASM as a server answers it (a few bytes stand for it: the worker never starts here). */
const wasmFetch = (async () => new Response(new Uint8Array([0, 97, 115, 109]))) as typeof fetch;

describe("a reward-model worker that does not load", () => {
  it("fails the load, naming the likely causes and a reload", async () => {
    vi.stubGlobal("Worker", UnloadableWorker);
    const e = await workerOnnxLoader(wasmFetch)(toyModel(), V, 0).then(
      () => null,
      (x: unknown) => x,
    );
    expect(UnloadableWorker.made).toBe(1);
    expect(e).toBeInstanceOf(OnnxRewardModelError);
    expect((e as Error).message).toBe(
      `runtime: the reward model failed: its worker stopped (${SCRIPT_NOT_LOADED})`,
    );
    expect(SCRIPT_NOT_LOADED).toMatch(/updated on its server.*network is down; reload the page$/);
  });
});

describe("onnxruntime's WebAssembly, downloaded once by the training worker", () => {
  it("is fetched once for every model; a failed download names the file and the cause, and is tried again", async () => {
    vi.stubGlobal("Worker", UnloadableWorker);
    let calls = 0;
    let answer: () => Promise<Response> = async () => {
      throw new TypeError("Failed to fetch");
    };
    const fetchFn = (async (url: URL) => {
      calls++;
      expect(String(url)).toMatch(/ort-wasm-simd-threaded\.wasm$/);
      return answer();
    }) as unknown as typeof fetch;
    const load = workerOnnxLoader(fetchFn);
    const fail = (e: unknown) => e as Error;
    const offline = await load(toyModel(), V, 0).then(() => null, fail);
    expect(offline).toBeInstanceOf(RewardSourceError);
    expect(offline?.message).toMatch(
      /^could not download onnxruntime's WebAssembly \(.*ort-wasm-simd-threaded\.wasm, 14 MB\): Failed to fetch; check the connection, then choose the reward model again$/,
    );
    expect(UnloadableWorker.made, "no worker without the runtime").toBe(1);
    answer = async () => new Response("bad gateway", { status: 502 });
    expect((await load(toyModel(), V, 0).then(() => null, fail))?.message).toMatch(
      /: the server answered HTTP 502; check the connection/,
    );
    // A server that refuses .wasm (IIS without its MIME mapping: 404.3): its settings, not the connection.
    answer = async () =>
      new Response("<h1>404.3</h1>", { status: 404, headers: { "content-type": "text/html" } });
    expect((await load(toyModel(), V, 0).then(() => null, fail))?.message).toMatch(
      /^could not download .*ort-wasm-simd-threaded\.wasm: the server does not serve this file \(HTTP 404\) though the lab ships it: if you host the lab, the server must serve \.safetensors\/\.onnx\/\.jsonl\/\.wasm files \(README: Hosting the lab\)$/,
    );
    answer = async () => new Response(new Uint8Array([0, 97, 115, 109]));
    // Downloaded: the worker (that never loads here) is the next failure, twice, on one download.
    for (let i = 0; i < 2; i++)
      expect((await load(toyModel(), V, 0).then(() => null, fail))?.message).toMatch(/its worker stopped/);
    expect(calls).toBe(4);
    expect(UnloadableWorker.made).toBe(3);
  });
});
