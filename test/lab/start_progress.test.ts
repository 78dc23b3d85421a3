/**
 * The start's progress reports (src/lab/start_progress.ts): each download's bytes as they arrive, the response
 * untouched; and loadResources' stages in order.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it, vi } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { loadResources } from "../../src/lab/resources";
import { PROGRESS_EVERY_MS, progressFetch, type StartStage } from "../../src/lab/start_progress";
import { BASE, publicFetch, serve } from "../helpers/lab_runtime";

/** A response whose body arrives in `chunks`, with `headers`. */
function streamed(chunks: number[], headers: Record<string, string> = {}, status = 200): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const n of chunks) c.enqueue(new Uint8Array(n));
      c.close();
    },
  });
  return new Response(body, { status, headers });
}

/** A clock that moves PROGRESS_EVERY_MS at each reading: every chunk is reported. */
function tickingClock() {
  let t = 0;
  return () => (t += PROGRESS_EVERY_MS);
}

describe("progressFetch", () => {
  it("reports a download at the request, as its bytes arrive and once complete; the response is the server's", async () => {
    const reports: StartStage[] = [];
    const res = streamed([1000, 2000, 500], { "content-length": "3500" });
    const f = progressFetch(
      async () => res,
      (s) => reports.push(s),
      tickingClock(),
    );
    const got = await f(new URL("models/sentiment/sft.safetensors", BASE));
    expect(got).toBe(res);
    expect((await got.arrayBuffer()).byteLength).toBe(3500);
    await vi.waitFor(() => expect(reports.at(-1)).toMatchObject({ loaded: 3500 }));
    expect(reports[0]).toEqual({
      stage: "download",
      path: "models/sentiment/sft.safetensors",
      loaded: 0,
      total: null,
    });
    expect(reports.slice(1).map((r) => (r.stage === "download" ? [r.loaded, r.total] : r))).toEqual([
      [1000, 3500],
      [3000, 3500],
      [3500, 3500],
      [3500, 3500],
    ]);
  });

  it("a fast download is a few reports, not one per chunk", async () => {
    const reports: StartStage[] = [];
    const f = progressFetch(
      async () => streamed(Array(200).fill(100)),
      (s) => reports.push(s),
      () => 0,
    );
    await (await f("http://lab.test/models/x.bin")).arrayBuffer();
    await vi.waitFor(() => expect(reports.at(-1)).toMatchObject({ loaded: 20_000 }));
    expect(reports).toHaveLength(2);
  });

  it("no total for a compressed body (Content-Length counts the compressed bytes); nothing more for an error answer", async () => {
    const reports: StartStage[] = [];
    const gz = progressFetch(
      async () => streamed([10], { "content-length": "4", "content-encoding": "gzip" }),
      (s) => reports.push(s),
      tickingClock(),
    );
    await (await gz("http://lab.test/a")).arrayBuffer();
    await vi.waitFor(() => expect(reports.at(-1)).toMatchObject({ loaded: 10, total: null }));
    // A shipped file's size from the manifest stands in for the total.
    reports.length = 0;
    const listed = progressFetch(
      async () => streamed([10], { "content-length": "4", "content-encoding": "gzip" }),
      (s) => reports.push(s),
      tickingClock(),
      (path) => (path === "models/a.bin" ? 10 : null),
    );
    await (await listed("http://lab.test/models/a.bin")).arrayBuffer();
    await vi.waitFor(() => expect(reports.at(-1)).toMatchObject({ loaded: 10, total: 10 }));
    reports.length = 0;
    const missing = progressFetch(
      async () => streamed([9], {}, 404),
      (s) => reports.push(s),
    );
    expect((await missing("http://lab.test/b")).status).toBe(404);
    expect(reports).toEqual([{ stage: "download", path: "b", loaded: 0, total: null }]);
  });

  it("a report that throws does not break the download", async () => {
    const f = progressFetch(
      async () => streamed([5, 5]),
      () => {
        throw new Error("page gone");
      },
      tickingClock(),
    );
    expect((await (await f("http://lab.test/c")).arrayBuffer()).byteLength).toBe(10);
  });
});

describe("loadResources' stages", () => {
  it("the manifest, the task, then each file with its bytes", async () => {
    const reports: StartStage[] = [];
    await loadResources(testExperiment(), BASE, publicFetch, (s) => reports.push(s));
    const size = (await readFile("public/models/arithmetic/tokenizer.json")).byteLength;
    await vi.waitFor(() =>
      expect(
        reports.some((r) => r.stage === "download" && r.path.endsWith("tokenizer.json") && r.loaded === size),
      ).toBe(true),
    );
    // Served compressed (no usable Content-Length): the manifest's size is the total.
    const listing = serve({
      "/models/manifest.json": JSON.stringify({
        files: [{ path: "models/arithmetic/tokenizer.json", bytes: size }],
      }),
    });
    const gzipped = (async (u: RequestInfo | URL) => {
      const r = await listing(u);
      const headers = new Headers(r.headers);
      headers.delete("content-length");
      headers.set("content-encoding", "gzip");
      return new Response(r.body, { status: r.status, headers });
    }) as typeof fetch;
    const seen: StartStage[] = [];
    await loadResources(testExperiment(), BASE, gzipped, (s) => seen.push(s));
    await vi.waitFor(() =>
      expect(
        seen.some((r) => r.stage === "download" && r.path.endsWith("tokenizer.json") && r.total === size),
      ).toBe(true),
    );
    const order = reports.map((r) => (r.stage === "download" ? r.path : r.stage));
    const first = (x: string) => order.indexOf(x);
    expect(first("models/manifest.json")).toBe(0);
    expect(first("task")).toBeGreaterThan(first("models/manifest.json"));
    expect(first("models/arithmetic/tokenizer.json")).toBeGreaterThan(first("task"));
  });

  it("a start model that is no own key of the presets is refused by name", async () => {
    // Before: "constructor" in PRESETS held, and a preset of Object's own fields was built.
    for (const model of ["constructor", "toString"])
      await expect(
        loadResources({ ...testExperiment(), model } as unknown as ExperimentSpec, BASE, publicFetch),
      ).rejects.toThrow(`unknown model "${model}"`);
  });
});
