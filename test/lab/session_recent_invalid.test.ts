/**
 * Recent experiments and a session saved by another version of the lab whose settings are not valid in this one
 * (src/ui/lab/session.ts), in Node: the stubbed page of ./session_page.ts.
 */
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { recentExperiments } from "../../src/ui/lab/saving";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { useLab } from "../../src/ui/lab_store";
import { savedTrained } from "./recent_saved";
import { fakeDeps, newDbName, stubPage } from "./session_page";

let session: LabSession | null = null;
stubPage(() => {
  session?.stop();
  session = null;
});

describe("recent experiments, settings of another version", () => {
  it("settings saved by another version that are not valid here: reset, named by label; the runs they change start over, kept", async () => {
    const name = newDbName();
    const a = defaultExperiment();
    // As an older version saved it: a learning rate this version's range (0–1) does not allow.
    const old = {
      ...a,
      runs: a.runs.map((r, i) => (i === 0 ? { ...r, config: { ...r.config, lr: 5 } } : r)),
    };
    const db = await savedTrained(name, old);
    session = await openLab(fakeDeps(name).deps);
    const notice = useLab.getState().notice ?? "";
    expect(notice).toContain(
      "Some settings saved by another version of the lab are not valid in this one and were reset to their defaults: PPO's “lr” must be",
    );
    expect(notice).toContain(
      // Whether the session as saved was kept is the next line's to say (keeping can fail).
      "PPO starts over with its settings reset.",
    );
    expect(notice).toMatch(
      /The experiment as saved before this page opened \(Sentiment · shipped SFT model · seed 0: PPO at step 10\) is kept/,
    );
    expect(notice).not.toMatch(/open before/);
    expect(useLab.getState().runs["ppo-1"].step).toBe(0);
    const [entry] = await recentExperiments();
    expect(entry.spec.runs[0].config.lr).toBe(5);
    db.close();
  });
});
