/**
 * What the training worker is doing while the lab starts, for the page's loading line: a student on a slow
 * network sees which file downloads and how far it got (and, on the page, that nothing arrives any more),
 * instead of one spinner for a start that takes seconds on a GPU and can take minutes on a bad connection.
 */

/** One stage of the worker's start, in order: gpu → (download | task)* → kernels → runs (→ download → reward). */
export type StartStage =
  | { stage: "gpu" }
  | { stage: "download"; path: string; loaded: number; total: number | null }
  | { stage: "task" }
  | { stage: "kernels" }
  | { stage: "runs" }
  /** A run optimises the shipped reward model: its file downloaded, onnxruntime starts in a worker of its own. */
  | { stage: "reward" };

/** Least time between two reports of one download's bytes (ms): a fast download is not a flood of messages. */
export const PROGRESS_EVERY_MS = 200;

/**
 * `fetchFn`, reporting each download's bytes as they arrive: at the request (0 bytes), then at most every
 * {@link PROGRESS_EVERY_MS} and once complete. The response is returned untouched (its URL, redirect and type
 * too); a copy of its body is read alongside to count the bytes (a start's files are a few MB). `total` is the
 * Content-Length when the server sends one, else (a compressed body's Content-Length counts other bytes)
 * `sizeOf(path)` — the manifest's size of a shipped file — or null. `report` must not throw; its errors are
 * ignored. Responses without a body report nothing more.
 */
export function progressFetch(
  fetchFn: typeof fetch,
  report: (s: StartStage) => void,
  now: () => number = () => performance.now(),
  sizeOf: (path: string) => number | null = () => null,
): typeof fetch {
  const tell = (s: StartStage) => {
    try {
      report(s);
    } catch {
      // progress is for the eye only
    }
  };
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost/");
    const path = url.pathname.replace(/^\//, "");
    tell({ stage: "download", path, loaded: 0, total: null });
    const res = await fetchFn(input, init);
    const length = Number(res.headers.get("content-length"));
    const compressed = (res.headers.get("content-encoding") ?? "identity") !== "identity";
    const total = length > 0 && Number.isFinite(length) && !compressed ? length : sizeOf(path);
    if (!res.ok || !res.body) return res;
    void count(res.clone(), (loaded) => tell({ stage: "download", path, loaded, total }), now);
    return res;
  };
}

/** Read `res`'s body, calling `on(bytes so far)` at most every PROGRESS_EVERY_MS and at the end. */
async function count(res: Response, on: (loaded: number) => void, now: () => number): Promise<void> {
  const reader = res.body?.getReader();
  if (!reader) return;
  let loaded = 0;
  let last = now();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      loaded += value.byteLength;
      if (now() - last >= PROGRESS_EVERY_MS) {
        last = now();
        on(loaded);
      }
    }
    on(loaded);
  } catch {
    // The original body fails the same way, and the start says so.
  }
}
