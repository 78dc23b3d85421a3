/**
 * A page served over plain http from another machine (a classroom LAN) is not a secure context, so the browser
 * hides navigator.gpu: acquireGpu says so (reason "insecure-context", not "no-webgpu"), and the no-WebGPU page
 * tells the reader to open it over https or on localhost (or, to test on a LAN, Chrome's
 * unsafely-treat-insecure-origin-as-secure flag) instead of advising a newer browser or GPU driver.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { acquireGpu } from "../../src/gpu/device";
import {
  browserWithoutGpu,
  GpuUnavailableError,
  SECURE_CONTEXT_HELP,
  WEBGPU_HELP,
} from "../../src/gpu/errors";
import { NoWebGpu } from "../../src/ui/NoWebGpu";

/** acquireGpu's error in a browser-like global with no navigator.gpu and the given isSecureContext. */
async function browserFailure(secure: boolean | undefined): Promise<GpuUnavailableError> {
  vi.stubGlobal("window", {});
  vi.stubGlobal("navigator", {});
  vi.stubGlobal("isSecureContext", secure);
  const e = await acquireGpu().then(
    () => null,
    (e: unknown) => e,
  );
  expect(e).toBeInstanceOf(GpuUnavailableError);
  return e as GpuUnavailableError;
}

afterEach(() => vi.unstubAllGlobals());

describe("no navigator.gpu", () => {
  it("on an insecure page (plain http off localhost) is reason insecure-context", async () => {
    const e = await browserFailure(false);
    expect(e.reason).toBe("insecure-context");
    expect(e.message).toContain("isSecureContext is false");
    expect(e.message).toContain(SECURE_CONTEXT_HELP);
    expect(e.message).not.toContain(WEBGPU_HELP.browser);
  });

  it("on a secure page (or where isSecureContext is unknown) is still no-webgpu", async () => {
    for (const secure of [true, undefined]) {
      const e = await browserFailure(secure);
      expect(e.reason).toBe("no-webgpu");
      expect(e.message).toContain(WEBGPU_HELP.browser);
    }
    expect(browserWithoutGpu(true).reason).toBe("no-webgpu");
    expect(browserWithoutGpu(false).reason).toBe("insecure-context");
  });

  it("the help names https, localhost and the LAN flag", () => {
    expect(SECURE_CONTEXT_HELP).toContain("https");
    expect(SECURE_CONTEXT_HELP).toContain("http://localhost");
    expect(SECURE_CONTEXT_HELP).toContain("chrome://flags/#unsafely-treat-insecure-origin-as-secure");
  });
});

describe("the no-WebGPU page", () => {
  const page = (reason: GpuUnavailableError["reason"]) =>
    renderToStaticMarkup(createElement(NoWebGpu, { unavailable: { reason, message: "m" } }));

  it("for insecure-context says why and how to open it securely, without browser-update advice", () => {
    const html = page("insecure-context");
    expect(html).toContain('data-reason="insecure-context"');
    expect(html).toContain("opened over plain http from another machine");
    expect(html).toContain("Open it over https");
    expect(html).toContain("http://localhost");
    expect(html).toContain("chrome://flags/#unsafely-treat-insecure-origin-as-secure");
    expect(html).not.toContain("too old");
    expect(html).not.toContain("chrome://flags/#enable-unsafe-webgpu");
    expect(html).not.toContain("update your GPU driver");
  });

  it("for no-webgpu still says how to get WebGPU", () => {
    const html = page("no-webgpu");
    expect(html).toContain("too old");
    expect(html).toContain("chrome://flags/#enable-unsafe-webgpu");
    expect(html).not.toContain("unsafely-treat-insecure-origin-as-secure");
  });
});
