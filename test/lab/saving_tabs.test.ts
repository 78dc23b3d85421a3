/** Two tabs of the lab on one browser profile (src/ui/lab/saving.ts): the one that starts saving last saves. */
import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import { openSaving, setOpenSaving, startSaving } from "../../src/ui/lab/saving";
import { useLab } from "../../src/ui/lab_store";

describe("two tabs", () => {
  it("the tab that opens last takes over saving; the other stops and says so", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const db = await openLabPersistence("saving-tabs");
    const said: string[] = [];
    const first = startSaving(db, {}, (l) => said.push(l));
    setOpenSaving(first);
    const stop = vi.spyOn(first, "stop");
    const other = startSaving(db, {}, () => {}); // another tab, here a second saver in the same process
    await vi.waitFor(() => expect(said).toHaveLength(1));
    expect(said[0]).toMatch(/^Another tab opened the lab and now saves this browser's experiment/);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(openSaving()).toBeNull(); // so Recent experiments cannot swap storage under the other tab
    first.close();
    other.close();
    await other.stop();
    db.close();
  });
});
