/**
 * The page's server is asked before another experiment opens (src/ui/lab/before_leaving.ts offline): a request
 * that fails (no network) keeps the open experiment at once; a slow server is waited for, the notice saying so
 * after 3 s, and the experiment opens once it answers (it was once refused as "offline" after 3 s).
 */
import { describe, expect, it, vi } from "vitest";
import { CHECKING_LINE, OFFLINE_LINE, offline } from "../../src/ui/lab/before_leaving";
import { leaveStopping } from "../../src/ui/lab/leave_stopping";
import { pipelineActions } from "../../src/ui/lab/pipeline_actions";
import { usePipelineStore } from "../../src/ui/lab/pipeline_store";
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

  it("two asks at once (Change… and Back) share one request and one answer", async () => {
    useLab.getState().setNotice(null);
    const server = slowServer(300);
    const first = offline(server, 1000, 50);
    const second = offline(server, 1000, 50);
    expect(server).toHaveBeenCalledTimes(1); // before: 2, and the first to end took out the other's checking line
    await new Promise((r) => setTimeout(r, 150));
    expect(useLab.getState().notice).toBe(CHECKING_LINE);
    expect(await Promise.all([first, second])).toEqual([null, null]);
    expect(useLab.getState().notice).toBeNull();
  });

  it("Change… with a Pipeline stage training asks the server once: the answer it stopped the stage on", async () => {
    const { assign } = await openOver([]);
    usePipelineStore.getState().begin("sft");
    const stop = vi.spyOn(pipelineActions, "stop").mockImplementation(async () => {
      if (usePipelineStore.getState().sft.status === "running")
        usePipelineStore.getState().finish({ stage: "sft", steps: 2, firstLoss: 2, lastLoss: 1, seconds: 1 });
    });
    // The server answers the first request; a second one fails (as one that gives up after 30 s would).
    const server = vi.fn(async () => {
      if (server.mock.calls.length > 1) throw new TypeError("Failed to fetch");
      return new Response(null, { status: 200 });
    });
    vi.stubGlobal("fetch", server);
    try {
      // Before: asked twice, so the stage was stopped and then the page stayed ("This browser is offline").
      expect(await leaveStopping(seedLink(7))).toBe(true);
    } finally {
      stop.mockRestore();
      usePipelineStore.getState().clear();
    }
    expect(server).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(seedLink(7));
  });
});
