/**
 * The page's server is asked before another experiment opens (src/ui/lab/before_leaving.ts offline): a request
 * that fails (no network) keeps the open experiment at once; a slow server is waited for, the notice saying so
 * after 3 s, and the experiment opens once it answers (it was once refused as "offline" after 3 s).
 */
import { describe, expect, it, vi } from "vitest";
import { CHECKING_LINE, OFFLINE_LINE, offline } from "../../src/ui/lab/before_leaving";
import { leaveFor } from "../../src/ui/lab/saving";
import { useLab } from "../../src/ui/lab_store";
import { openOver, seedLink, stubLeavePage } from "./leave_page";

stubLeavePage();

/** A server that answers a request `afterMs` after it came (a request aborted meanwhile fails, as fetch's). */
function slowServer(afterMs: number) {
  return vi.fn(
    (_url: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        const t = setTimeout(() => resolve(new Response(null, { status: 200 })), afterMs);
        init?.signal?.addEventListener("abort", () => {
          clearTimeout(t);
          reject(new DOMException("The operation was aborted.", "AbortError"));
        });
      }),
  );
}

describe("asking the page's server before leaving", () => {
  it("a server slower than 3 s is waited for, with a notice, and the link opens once it answers", async () => {
    const { assign } = await openOver([[1, 20]]);
    useLab.getState().setNotice("An earlier line.");
    vi.stubGlobal("fetch", slowServer(3400));
    const left = leaveFor(seedLink(7)); // Change…, a lesson, or Open the link anyway
    await new Promise((r) => setTimeout(r, 3200));
    expect(useLab.getState().notice).toBe(`An earlier line. ${CHECKING_LINE}`);
    expect(assign).not.toHaveBeenCalled();
    expect(await left).toBe(true); // it was refused: "This browser is offline (…)"
    expect(assign).toHaveBeenCalledWith(seedLink(7));
    expect(useLab.getState().notice).toBe("An earlier line.");
  }, 10_000);

  it("no network: refused at once; no answer within the limit: refused, naming the wait", async () => {
    const failing = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect(await offline(failing)).toBe(OFFLINE_LINE);
    useLab.getState().setNotice(null);
    const probe = offline(slowServer(10_000), 300, 50);
    await new Promise((r) => setTimeout(r, 150));
    expect(useLab.getState().notice).toBe(CHECKING_LINE);
    expect(await probe).toBe(
      "The page's server did not answer within 0.3 s (opening another experiment loads the page again from it)",
    );
    expect(useLab.getState().notice).toBeNull();
    expect(await offline(slowServer(100), 1000, 50)).toBeNull();
    expect(useLab.getState().notice).toBeNull();
  });
});
