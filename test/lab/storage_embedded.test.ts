/**
 * Storage that cannot be opened (src/ui/lab/embed_storage.ts): in its own tab the lab names the browser's reason;
 * embedded in another site's page it says the browser keeps embedded pages from saving (the browser's own error,
 * "The user denied permission to access the database.", blamed a student who denied nothing). Its answers (Open
 * in its own tab, no storage-access request): ./embed_storage_buttons.test.ts. In Node: ./session_page.ts's page.
 */
import { describe, expect, it } from "vitest";
import { EMBEDDED_NO_STORAGE_LINE, noStorageLine } from "../../src/ui/lab/embed_storage";
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
