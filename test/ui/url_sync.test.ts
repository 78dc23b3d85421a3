/**
 * The address follows the lab (src/ui/lab/url_sync.ts): a setting changed after a quiet spell is in the link at
 * once, so a reload right after it opens the link that names it; changes that follow within the debounce (a drag)
 * land together once they stop. `location` and `history` are stubs; timers and performance.now() are fake.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import { specFromHash } from "../../src/lab/url";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the link follows the lab", () => {
  it("writes a change after a quiet spell at once and a burst after it once, when it stops", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
    const loc = { href: "http://lab.test/" };
    const writes: string[] = [];
    vi.stubGlobal("location", loc);
    vi.stubGlobal("history", {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => {
        loc.href = url;
        writes.push(url);
      },
    });
    const { startUrlSync } = await import("../../src/ui/lab/url_sync");
    const { useLab } = await import("../../src/ui/lab_store");
    const beta = () => specFromHash(new URL(loc.href).hash).spec.runs[0].config.beta;
    useLab.getState().setSpec(testExperiment());
    const run = useLab.getState().spec.runs[0].id;
    const stop = startUrlSync(300);
    expect(writes).toHaveLength(1); // the experiment as opened
    vi.advanceTimersByTime(1000);

    useLab.getState().setRunConfig(run, { beta: 0.09 });
    expect(beta()).toBe(0.09); // at once, no timer
    expect(writes).toHaveLength(2);
    // A drag right after: its values wait, then the last one lands once.
    for (const b of [0.1, 0.11, 0.12]) {
      vi.advanceTimersByTime(50);
      useLab.getState().setRunConfig(run, { beta: b });
    }
    expect(writes).toHaveLength(2);
    vi.advanceTimersByTime(299);
    expect(writes).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(3);
    expect(beta()).toBe(0.12);
    // Quiet again: the next change is at once.
    vi.advanceTimersByTime(1000);
    useLab.getState().setRunConfig(run, { beta: 0.2 });
    expect(beta()).toBe(0.2);
    stop();
  });
});
