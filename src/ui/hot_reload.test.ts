import { describe, expect, it } from "vitest";
import { onHotReload, reloadForEdit } from "./hot_reload";

describe("reloadForEdit", () => {
  it("saves first (every hook, once), then stops the worker, for every edited module at once", async () => {
    const seen: string[] = [];
    onHotReload(async () => {
      await new Promise((r) => setTimeout(r, 10));
      seen.push("save");
    });
    onHotReload(() => Promise.reject(new Error("a failed save does not hold the reload back")));
    await Promise.all([reloadForEdit(), reloadForEdit(() => seen.push("stop"))]);
    expect(seen).toEqual(["save", "stop"]);
  });
});
