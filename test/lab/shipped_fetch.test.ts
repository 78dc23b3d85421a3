/**
 * Shipped files (src/lab/shipped_fetch.ts): a file the manifest lists that does not come back as itself is an
 * error to retry, never "missing" — a school network's sign-in page or a proxy's 502 page once read as missing,
 * the lab fell back to a random start model and started the saved runs over on it.
 */
import { describe, expect, it } from "vitest";
import { fetchShipped, shippedPaths } from "../../src/lab/shipped_fetch";

const URL_ = new URL("http://lab.test/models/arithmetic/sft.safetensors");
const page = (status: number) =>
  new Response("<html>Sign in to the school Wi-Fi</html>", {
    status,
    headers: { "content-type": "text/html" },
  });
const file = () => new Response(new Uint8Array([1, 2, 3]), { status: 200 });
const answer = (res: () => Response) => (async () => res()) as unknown as typeof fetch;
const offline = (async () => {
  throw new TypeError("Failed to fetch");
}) as unknown as typeof fetch;

describe("fetching a shipped file", () => {
  it("a listed file that comes back as anything but itself is an error naming the answer, with what to do", async () => {
    await expect(
      fetchShipped(
        URL_,
        answer(() => page(502)),
        true,
      ),
    ).rejects.toThrow(
      "could not download /models/arithmetic/sft.safetensors: the server answered HTTP 502 with a web page instead of the file (a network's sign-in page, or a server's error page); check the connection, then reload the page to try again (nothing saved in this browser was changed)",
    );
    await expect(
      fetchShipped(
        URL_,
        answer(() => page(200)),
        true,
      ),
    ).rejects.toThrow(/HTTP 200 with a web page/);
    await expect(
      fetchShipped(
        URL_,
        answer(() => new Response("", { status: 404 })),
        true,
      ),
    ).rejects.toThrow(
      "could not download /models/arithmetic/sft.safetensors: the server does not serve this file (HTTP 404) though the lab ships it: if you host the lab, the server must serve .safetensors/.onnx/.jsonl/.wasm files (README: Hosting the lab)",
    );
    // IIS's answer for a type it has no MIME mapping for: a web page, HTTP 404; not "check the connection".
    const iis = await fetchShipped(
      URL_,
      answer(() => page(404)),
      true,
    ).catch((e: Error) => e.message);
    expect(iis).toMatch(/does not serve this file \(HTTP 404\) though the lab ships it/);
    expect(iis).not.toMatch(/sign-in page|check the connection/);
    await expect(fetchShipped(URL_, offline, true)).rejects.toThrow(
      /^could not download \/models\/arithmetic\/sft\.safetensors \(Failed to fetch\): check the connection/,
    );
    const ok = await fetchShipped(URL_, answer(file), true);
    expect(new Uint8Array(await (ok as Response).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("without a manifest, HTTP 404 or a web page (a dev server's answer for a path it lacks) means not shipped", async () => {
    expect(
      await fetchShipped(
        URL_,
        answer(() => new Response("", { status: 404 })),
        null,
      ),
    ).toBeNull();
    expect(
      await fetchShipped(
        URL_,
        answer(() => page(200)),
        null,
      ),
    ).toBeNull();
    await expect(
      fetchShipped(
        URL_,
        answer(() => new Response("", { status: 503 })),
        null,
      ),
    ).rejects.toThrow(/answered HTTP 503/);
    await expect(fetchShipped(URL_, offline, null)).rejects.toThrow(/Failed to fetch/);
  });

  it("a file the manifest does not list is not asked for", async () => {
    let asked = 0;
    const counting = (async () => {
      asked++;
      return file();
    }) as unknown as typeof fetch;
    expect(await fetchShipped(URL_, counting, false)).toBeNull();
    expect(asked).toBe(0);
  });

  it("the manifest: none (404) is no list; one that does not come back as itself is an error", async () => {
    const base = "http://lab.test/";
    expect(
      await shippedPaths(
        base,
        answer(() => new Response("", { status: 404 })),
      ),
    ).toBeNull();
    await expect(
      shippedPaths(
        base,
        answer(() => page(502)),
      ),
    ).rejects.toThrow(
      /could not download \/models\/manifest\.json: the server answered HTTP 502 with a web page/,
    );
    await expect(
      shippedPaths(
        base,
        answer(() => page(200)),
      ),
    ).rejects.toThrow(/HTTP 200 with a web page/);
    await expect(
      shippedPaths(
        base,
        answer(() => new Response('{"files": [', { status: 200 })),
      ),
    ).rejects.toThrow(/manifest\.json is not readable JSON/);
    await expect(shippedPaths(base, offline)).rejects.toThrow(/Failed to fetch/);
    const listed = await shippedPaths(
      base,
      answer(() =>
        Response.json({
          files: [{ path: "models/arithmetic/sft.safetensors", bytes: 3_061_000 }, { path: "models/x.json" }],
        }),
      ),
    );
    expect([...(listed ?? [])]).toEqual([
      ["models/arithmetic/sft.safetensors", 3_061_000],
      ["models/x.json", null],
    ]);
  });
});
