/**
 * Fetching a file the lab ships under public/models/ (a start model, a tokenizer's dataset, a reward model, a
 * preference dataset). A shipped file that does not come back is not the same as one that is not shipped: a
 * school network's sign-in page, a proxy's "502 Bad Gateway" page or a cut connection must stop the start with
 * an error the user can retry — not read as "missing", which makes the lab fall back (a random start model, DPO
 * online) and then start the saved runs over on the wrong model.
 *
 * models/manifest.json lists every shipped file: a file it lists must come back as itself (HTTP 2xx, not a web
 * page). Without a manifest (a test's server, a bare folder) the old reading stays: HTTP 404, or a web page
 * (a dev server's answer for a path it does not have), means the file is not shipped.
 */

/** What the lab knows of a file: listed in the manifest (true), not listed (false), or no manifest (null). */
export type Listed = boolean | null;

/** The advice a download failure at the lab's start ends with (the default). */
export const RETRY_START =
  "check the connection, then reload the page to try again (nothing saved in this browser was changed)";

/**
 * Why a file the lab ships answered HTTP 404: the server does not serve its type (IIS answers 404.3 for a type
 * it has no MIME mapping for), not the network; ends the error, with no "check the connection".
 */
export const NOT_SERVED =
  "the server does not serve this file (HTTP 404) though the lab ships it: if you host the lab, the server must serve .safetensors/.onnx/.jsonl/.wasm files (README: Hosting the lab)";

const isPage = (res: Response) => (res.headers.get("content-type") ?? "").includes("text/html");

/** Why an answer is not the file: "HTTP 502 with a web page (…)". */
function answered(res: Response): string {
  const page = isPage(res)
    ? " with a web page instead of the file (a network's sign-in page, or a server's error page)"
    : "";
  return `the server answered HTTP ${res.status}${page}`;
}

/** The server's answer for `url`. @throws Error naming the path on a network failure, ending with `advice`. */
async function answer(url: URL, fetchFn: typeof fetch, advice: string): Promise<Response> {
  try {
    return await fetchFn(url);
  } catch (e) {
    throw new Error(
      `could not download ${url.pathname} (${e instanceof Error ? e.message : String(e)}): ${advice}`,
    );
  }
}

/**
 * Fetch a shipped file.
 * @param listed whether models/manifest.json lists it ({@link Listed}); a file it does not list is not asked for.
 * @param advice what the error ends with: {@link RETRY_START} at the start; a file fetched later (a reward model,
 *   the Pipeline's pairs) says to try that again instead.
 * @returns the response, or null when the file is not shipped (not listed; without a manifest, HTTP 404 or a
 *   web page).
 * @throws Error naming the path and what came back — a network failure, or a listed file answered by anything
 *   but itself (an HTTP error, a web page) — with what to do; for HTTP 404, {@link NOT_SERVED}.
 */
export async function fetchShipped(
  url: URL,
  fetchFn: typeof fetch,
  listed: Listed,
  advice = RETRY_START,
): Promise<Response | null> {
  if (listed === false) return null;
  const res = await answer(url, fetchFn, advice);
  if (res.ok && !isPage(res)) return res;
  if (listed === null && (res.status === 404 || isPage(res))) return null;
  if (res.status === 404) throw new Error(`could not download ${url.pathname}: ${NOT_SERVED}`);
  throw new Error(`could not download ${url.pathname}: ${answered(res)}; ${advice}`);
}

/**
 * The paths models/manifest.json lists, each with its size in bytes (null where the entry has none), or null
 * when the server has none (HTTP 404).
 * @throws Error as {@link fetchShipped} does for a listed file: when the manifest does not come back as itself,
 *   the lab cannot tell a missing file from a failed download.
 */
export async function shippedPaths(
  baseUrl: string,
  fetchFn: typeof fetch,
): Promise<ReadonlyMap<string, number | null> | null> {
  const url = new URL("models/manifest.json", baseUrl);
  const res = await answer(url, fetchFn, RETRY_START);
  if (res.status === 404) return null;
  if (!res.ok || isPage(res))
    throw new Error(`could not download ${url.pathname}: ${answered(res)}; ${RETRY_START}`);
  let json: { files?: { path?: unknown; bytes?: unknown }[] };
  try {
    json = await res.json();
  } catch (e) {
    throw new Error(
      `${url.pathname} is not readable JSON (${e instanceof Error ? e.message : String(e)}): ${RETRY_START}`,
    );
  }
  if (!Array.isArray(json?.files)) throw new Error(`${url.pathname} lists no files: ${RETRY_START}`);
  const size = (b: unknown) => (typeof b === "number" && Number.isSafeInteger(b) && b >= 0 ? b : null);
  return new Map(json.files.map((f) => [String(f.path), size(f.bytes)]));
}
