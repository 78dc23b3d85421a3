/**
 * The page's own GPU device runs only the System panel's checks (the lab trains on the worker's device, which it
 * recovers by itself): its loss says so, without "Reload the page" nor the driver's raw line, while the runs
 * went on training (a reviewer saw the red banner as runs went from step 1 to 22).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorBannerView } from "./ErrorBanner";
import { useApp } from "./store";

const banner = () => {
  const { errors, lostShown, dismissErrors } = useApp.getState();
  return renderToStaticMarkup(
    createElement(ErrorBannerView, { errors, lost: lostShown, dismiss: dismissErrors }),
  );
};

describe("the error banner", () => {
  it("on the page's device lost: the checks lost it, the runs are not affected, Run again gets a new one", () => {
    useApp.getState().deviceLost();
    const html = banner();
    expect(html).toContain("The System panel&#x27;s checks lost their GPU device.");
    expect(html).toContain("Training runs on a GPU device of its own and is not affected.");
    expect(html).toContain("Run again in the System panel gets the checks a new device.");
    expect(html).not.toMatch(/Reload|GPU device lost \(|<li/);
    // Dismissed, it goes; a new device clears it too.
    useApp.getState().dismissErrors();
    expect(banner()).toBe("");
    useApp.getState().deviceLost();
    useApp.getState().gpuReady({} as never, false);
    expect(banner()).toBe("");
  });

  it("other errors still list their text under 'Something went wrong.'", () => {
    useApp.getState().reportError("GPU validation error: x");
    expect(banner()).toMatch(
      /Something went wrong\.<\/strong><ul><li class="mono">GPU validation error: x<\/li>/,
    );
    useApp.getState().dismissErrors();
  });
});
