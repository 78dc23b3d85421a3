import { afterEach, describe, expect, it, vi } from "vitest";
import { printInLight } from "./theme";

describe("printing", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("prints in the light theme and puts the screen's back after, once for nested print events", () => {
    const root = { dataset: {} as Record<string, string> };
    vi.stubGlobal("document", { documentElement: root });
    const win = new EventTarget();
    const stop = printInLight(win);
    const fire = (t: string) => win.dispatchEvent(new Event(t));

    root.dataset.theme = "dark";
    fire("beforeprint");
    expect(root.dataset.theme).toBe("light");
    fire("beforeprint"); // a print within the print
    fire("afterprint");
    expect(root.dataset.theme).toBe("dark");
    fire("afterprint"); // the outer one's: nothing left to restore
    expect(root.dataset.theme).toBe("dark");

    // No theme chosen (the system's, by prefers-color-scheme): back to none.
    delete root.dataset.theme;
    fire("beforeprint");
    expect(root.dataset.theme).toBe("light");
    fire("afterprint");
    expect(root.dataset.theme).toBeUndefined();

    stop();
    root.dataset.theme = "dark";
    fire("beforeprint");
    expect(root.dataset.theme).toBe("dark");
  });
});
