/**
 * The page's own GPU device runs only the System panel's checks (the lab trains on the worker's device, which it
 * recovers by itself): its loss says so, without "Reload the page" nor the driver's raw line, while the runs
 * went on training (a reviewer saw the red banner as runs went from step 1 to 22).
 */
import { readFileSync } from "node:fs";
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

  it("the device lost alone is a status in the warning style, not a red alert; errors stay an alert", () => {
    useApp.getState().deviceLost();
    expect(banner()).toMatch(/^<div class="banner banner-warn" role="status"/);
    useApp.getState().reportError("GPU validation error: x");
    expect(banner()).toMatch(/^<div class="banner banner-error" role="alert"/);
    useApp.getState().dismissErrors();
  });

  it("the warning style's text is at least 4.5:1 on its background in both themes", () => {
    const css = ["./styles.css", "./banner.css"]
      .map((f) => readFileSync(new URL(f, import.meta.url), "utf8"))
      .join("\n");
    const rule = (sel: string) =>
      css.slice(css.indexOf(`${sel} {`), css.indexOf("}", css.indexOf(`${sel} {`)));
    const warn = rule(".banner-warn");
    const [fg, bg] = ["color", "background"].map(
      (p) => warn.match(new RegExp(`${p}: var\\((--[\\w-]+)\\)`))?.[1],
    );
    const hex = (sel: string, v?: string) =>
      rule(sel).match(new RegExp(`${v}: (#[0-9a-f]{6})`, "i"))?.[1] ?? "";
    const lum = (h: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = Number.parseInt(h.slice(i, i + 2), 16) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const sel of [":root", ':root[data-theme="dark"]', ':root:not([data-theme="light"])']) {
      const [a, b] = [lum(hex(sel, fg)), lum(hex(sel, bg))].sort((x, y) => y - x);
      expect((a + 0.05) / (b + 0.05), sel).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("other errors still list their text under 'Something went wrong.'", () => {
    useApp.getState().reportError("GPU validation error: x");
    expect(banner()).toMatch(
      /Something went wrong\.<\/strong><ul><li class="mono">GPU validation error: x<\/li>/,
    );
    useApp.getState().dismissErrors();
  });
});
