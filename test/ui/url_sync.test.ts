/**
 * The address follows the lab (src/ui/lab/url_sync.ts): a setting changed after a quiet spell is in the link at
 * once, so a reload right after it opens the link that names it; a view's drag (smoothing) is written at most
 * once per 150 ms, the last value by 150 ms after it. `location` and `history` are stubs; timers and
 * performance.now() are fake.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import { specFromHash } from "../../src/lab/url";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the link follows the lab", () => {
  it("writes the experiment's changes at once and a view's drag at most once per 150 ms, its last value last", async () => {
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
    const stop = startUrlSync(150);
    expect(writes).toHaveLength(1); // the experiment as opened
    vi.advanceTimersByTime(1000);

    // The experiment's changes (typed values, ↑/↓ presses) are each in the link at once: the autosaver saves
    // them at once too, and a reload compares the two.
    for (const b of [0.09, 0.1, 0.11, 0.12]) {
      vi.advanceTimersByTime(50);
      useLab.getState().setRunConfig(run, { beta: b });
      expect(beta()).toBe(b);
    }
    expect(writes).toHaveLength(5);
    // A view's drag (smoothing): at most one write per 150 ms, the last value 150 ms after the one before.
    vi.advanceTimersByTime(1000);
    const smoothing = () => specFromHash(new URL(loc.href).hash).view.smoothing;
    useLab.getState().setView({ smoothing: 0.5 });
    for (const x of [0.55, 0.6]) {
      vi.advanceTimersByTime(50);
      useLab.getState().setView({ smoothing: x });
    }
    expect(writes).toHaveLength(6); // 0.5 at once; 0.55 and 0.6 wait for the 150 ms
    expect(smoothing()).toBe(0.5);
    vi.advanceTimersByTime(49);
    expect(writes).toHaveLength(6);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(7);
    expect(smoothing()).toBe(0.6);
    stop();
  });

  it("an imported run becoming one for comparison leaves the link at once (it was shared as a trainable run)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
    const loc = { href: "http://lab.test/" };
    vi.stubGlobal("location", loc);
    vi.stubGlobal("history", {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => {
        loc.href = url;
      },
    });
    const { startUrlSync } = await import("../../src/ui/lab/url_sync");
    const { useLab } = await import("../../src/ui/lab_store");
    useLab.getState().setSpec(testExperiment());
    const stop = startUrlSync(150);
    const ids = () => specFromHash(new URL(loc.href).hash).spec.runs.map((r) => r.id);
    const before = ids();
    // As import_run.ts does: the run joins the experiment, then is marked for comparison.
    const imported = { ...testExperiment().runs[0], id: "ppo-2", label: "PPO (imported)" };
    useLab.getState().upsertRun(imported);
    expect(ids()).toEqual([...before, "ppo-2"]);
    const run = useLab.getState().runs["ppo-2"];
    useLab.getState().restoreRuns([{ ...run, comparison: true }]);
    expect(ids()).toEqual(before);
    stop();
  });
});
