/**
 * Saves that fail (storage full): the autosaver says why every time, until a save succeeds again, so the top
 * bar's indicator reads "not saved" instead of "saved" (src/ui/lab/SaveState.tsx), the reason is named even
 * when the browser's error has no message, and a reload then asks first.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { startAutosave } from "../../src/lab/autosave";
import { openLabPersistence } from "../../src/lab/persist";
import { errorMessage } from "../../src/util/errors";
import { pausedState } from "./persist_db";

/** A QuotaExceededError as Chrome throws it: a DOMException whose message may be empty. */
const quota = () => Object.assign(new Error(""), { name: "QuotaExceededError" });

describe("failing saves", () => {
  it("are said every time until one succeeds, with the reason; a reload then asks first, paused too", async () => {
    const db = await openLabPersistence("autosave-failing");
    let full = true;
    const saveRun = db.saveRun.bind(db);
    db.saveRun = async (...a) => {
      if (full) throw quota();
      return saveRun(...a);
    };
    const state = pausedState(3);
    const failed: (string | null)[] = [];
    const errors: string[] = [];
    const page = new EventTarget();
    const saver = startAutosave({
      persistence: db,
      source: { getState: () => state, subscribe: () => () => {} },
      onError: (m) => errors.push(m),
      onFailed: (m) => failed.push(m),
      historyEveryMs: 1e9,
      checkpointEveryMs: 1e9,
      page,
    });
    await saver.flush();
    await saver.flush();
    expect(errors).toHaveLength(1); // the notice once
    expect(failed).toHaveLength(2); // the indicator every time
    expect(failed[0]).toMatch(/its storage for this page is full/);
    // Paused, with saves failing: leaving asks first (steps 1–3 have no checkpoint).
    const leave = new Event("beforeunload", { cancelable: true });
    page.dispatchEvent(leave);
    expect(leave.defaultPrevented).toBe(true);
    full = false;
    await saver.flush();
    expect(failed.at(-1)).toBeNull();
    await saver.stop();
    db.close();
  });

  it("an error without a message is named by its name", () => {
    expect(errorMessage(quota())).toBe("QuotaExceededError");
    expect(errorMessage(new Error("x"))).toBe("x");
    expect(errorMessage("y")).toBe("y");
  });
});
