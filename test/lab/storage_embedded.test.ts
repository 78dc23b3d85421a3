/**
 * Storage that cannot be opened (src/ui/lab/embed_storage.ts): in its own tab the lab names the browser's reason;
 * embedded in another site's page it says the browser keeps embedded pages from saving (the browser's own error,
 * "The user denied permission to access the database.", blamed a student who denied nothing), and "Let it save"
 * asks for storage access, reloading only when nothing trained would be lost. In Node: ./session_page.ts's page.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { EMBEDDED_NO_STORAGE_LINE, letItSave, noStorageLine } from "../../src/ui/lab/embed_storage";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { useLab } from "../../src/ui/lab_store";
import { fakeDeps, stubPage } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});

const denied = new Error("The user denied permission to access the database.");

describe("the line when storage cannot be opened", () => {
  it("names the browser's reason in its own tab, and the embedding when embedded", () => {
    expect(noStorageLine(denied, false)).toBe(
      "Runs will not survive a reload: this browser's storage is unavailable (The user denied permission to access the database.).",
    );
    expect(noStorageLine(denied, true)).toBe(
      "This lab is embedded in another site's page, and the browser keeps embedded pages from saving. Runs will not survive a reload.",
    );
  });

  it("an embedded lab says so in its notice, not the browser's 'user denied'", async () => {
    Object.assign(window, { top: new EventTarget() }); // the host page's window
    const deps = { ...fakeDeps("x").deps, openPersistence: () => Promise.reject(denied) };
    session = await openLab(deps);
    expect(useLab.getState().notice).toContain(EMBEDDED_NO_STORAGE_LINE);
    expect(useLab.getState().notice).not.toContain("denied");
    expect(useLab.getState().saveFailed).toBe(EMBEDDED_NO_STORAGE_LINE);
  });
});

describe("Let it save", () => {
  let request = vi.fn(async () => {});
  beforeEach(() => {
    request = vi.fn(async () => {});
    vi.stubGlobal("document", { requestStorageAccess: request, hasStorageAccess: async () => false });
    useLab.setState({ runs: {} });
  });
  const opens = async () => ({ close: () => {} }) as never;

  it("asks the browser; refused, it says so and reloads nothing", async () => {
    request.mockRejectedValueOnce(new Error("Permission denied."));
    const reload = vi.fn();
    expect(await letItSave(opens, reload)).toBe(
      "The browser did not let the lab save (Permission denied.): open it in its own tab to keep runs.",
    );
    expect(reload).not.toHaveBeenCalled();
  });

  it("granted with nothing trained: storage opens, the lab reloads into the same address", async () => {
    const reload = vi.fn();
    expect(await letItSave(opens, reload)).toBeNull();
    expect(request).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("granted with a run trained, or storage still closed: no reload (the training stays)", async () => {
    const reload = vi.fn();
    useLab.setState({ runs: { "ppo-1": { step: 1 } as never } }); // PPO trained a step
    expect(await letItSave(opens, reload)).toMatch(
      /^The browser lets the lab save now: it starts saving after a reload/,
    );
    useLab.setState({ runs: {} });
    expect(await letItSave(() => Promise.reject(denied), reload)).toMatch(
      /still keeps this page's storage closed/,
    );
    expect(reload).not.toHaveBeenCalled();
  });
});
