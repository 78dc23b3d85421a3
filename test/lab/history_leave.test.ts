/**
 * Back, Forward or a pasted link (src/ui/lab/saving.ts leaveFor with fromHistory) that would forget training —
 * the open experiment not kept, or a kept one forgotten to make room — does not leave: the address goes back and
 * the notice asks, naming what would be forgotten (src/ui/lab/history_leave.ts, LeaveAskButtons.tsx); "Open the
 * link anyway" then leaves. A move that loses nothing leaves at once. In Node: the stubbed page of ./session_page.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { encode } from "../../src/lab/url";
import { answered, noticeDismissed, useLeaveAsk } from "../../src/ui/lab/history_leave";
import { openAnyway } from "../../src/ui/lab/open_anyway";
import { hashChanged, leaveFor } from "../../src/ui/lab/saving";
import { SAVING_CHANNEL, takenOverLine, useSavingTabs } from "../../src/ui/lab/saving_tabs";
import { openLab } from "../../src/ui/lab/session";
import { useLab } from "../../src/ui/lab_store";
import { back, opened, openOver, seedLink, stubLeavePage, trainTo } from "./leave_page";
import { fakeDeps, newDbName, page, setHash } from "./session_page";

stubLeavePage();

describe("Back, Forward or a pasted link that would forget training", () => {
  it("does not drop the open experiment unasked: the address comes back, the notice asks, and Open anyway leaves", async () => {
    // Six kept experiments, each with more training than this one (PPO at 10): leaving would not keep it.
    const { assign, push, here } = await openOver([1, 2, 3, 4, 5, 6].map((s) => [s, 20]));
    const link = `http://lab.test/#${encode({ ...defaultExperiment(), seed: 9 })}`;
    expect(await back(9)).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    expect(page.loc.reload).not.toHaveBeenCalled();
    // The address is this experiment's again, as a new entry (the one moved to stays in history).
    expect(push).toHaveBeenCalledTimes(1);
    expect(page.loc.hash).toBe(here);
    expect(useLeaveAsk.getState().ask?.url).toBe(link);
    expect(useLab.getState().notice).toBe(
      "The address moved to another experiment (Sentiment · shipped SFT model · seed 9), so this one stays open " +
        "until you choose. If that one opens, this browser will not keep its training (runs up to step 10): the 6 " +
        "kept experiments each hold more training (Change… → Recent experiments); forget one there first to keep this one.",
    );
    // Open anyway: it leaves for the link (saving first), not asked again; the question leaves the notice.
    expect(await openAnyway()).toBe(true);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign.mock.calls[0][0]).toBe(link);
    expect(useLeaveAsk.getState().ask).toBeNull();
    expect(useLab.getState().notice).toBeNull();
  });

  it("leaves at once when nothing trained would be lost (the list has room)", async () => {
    const { assign } = await openOver([
      [1, 20],
      [2, 20],
      [3, 3],
      [4, 20],
      [5, 20],
    ]);
    // Five kept: room for this one, nothing forgotten; Back leaves at once (the address has moved: a reload).
    expect(await back(9)).toBe(true);
    expect(page.loc.reload).toHaveBeenCalledTimes(1);
    expect(useLeaveAsk.getState().ask).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it("Back twice quickly: the second address opens, not the first (a move while the server is asked)", async () => {
    const { assign } = await openOver([[1, 20]]);
    let answer = () => {};
    const asked = new Promise<void>((r) => {
      answer = r;
    });
    // The page's server answers the first probe late (before_leaving.ts offline), the next at once.
    const slow = vi.fn(async () => {
      if (slow.mock.calls.length === 1) await asked;
      return new Response(null, { status: 200 });
    });
    vi.stubGlobal("fetch", slow);
    const first = back(9);
    await new Promise((r) => setTimeout(r, 0));
    setHash(`#${encode({ ...defaultExperiment(), seed: 8 })}`);
    hashChanged(); // Back again while the first move is checked
    answer();
    expect(await first).toBe(true);
    // The address is seed 8's: the page reloads into it (assigning seed 9's link would open the older one).
    expect(assign).not.toHaveBeenCalled();
    expect(page.loc.reload).toHaveBeenCalledTimes(1);
  });

  it("names the kept experiment a full list would forget; a link to a kept one (swapped out first) leaves at once", async () => {
    const { assign } = await openOver([
      [1, 20],
      [2, 20],
      [3, 3],
      [4, 20],
      [5, 20],
      [6, 20],
    ]);
    expect(await back(9)).toBe(false);
    expect(useLab.getState().notice).toContain(
      "If that one opens, this browser keeps its training (runs up to step 10) under Change… → Recent experiments. " +
        "To make room, it will forget the kept experiment with the least training (Sentiment · shipped SFT model · seed 3: PPO at step 3).",
    );
    expect(page.loc.reload).not.toHaveBeenCalled();
    // Back to seed 4, kept: reopening swaps it out of the list, nothing is forgotten.
    expect(await back(4)).toBe(true);
    expect(page.loc.reload).toHaveBeenCalledTimes(1);
    expect(assign).not.toHaveBeenCalled();
  });
});

describe("the question, answered or not", () => {
  it("Stay takes only the question out of the notice; the notice's × drops the question too", async () => {
    await openOver([1, 2, 3, 4, 5, 6].map((s) => [s, 20]));
    useLab.getState().setNotice("An earlier line.");
    expect(await back(9)).toBe(false);
    const ask = useLeaveAsk.getState().ask;
    expect(useLab.getState().notice).toBe(`An earlier line. ${ask?.line}`);
    expect(answered()).toBe(seedLink(9)); // Stay
    expect(useLab.getState().notice).toBe("An earlier line.");
    expect(await back(8)).toBe(false);
    useLab.getState().setNotice(null); // the notice's ×
    noticeDismissed();
    expect(useLeaveAsk.getState().ask).toBeNull();
    expect(await openAnyway()).toBe(false);
    expect(page.loc.reload).not.toHaveBeenCalled();
  });

  it("a second Back while the kept list is read is the one asked about", async () => {
    await openOver([1, 2, 3, 4, 5, 6].map((s) => [s, 20]));
    setHash(`#${encode({ ...defaultExperiment(), seed: 9 })}`);
    const first = leaveFor(location.href, undefined, true);
    setHash(`#${encode({ ...defaultExperiment(), seed: 8 })}`);
    hashChanged();
    expect(await first).toBe(false);
    expect(useLeaveAsk.getState().ask?.url).toBe(seedLink(8));
    expect(useLab.getState().notice).toContain("(Sentiment · shipped SFT model · seed 8)");
    expect(useLab.getState().notice).not.toContain("seed 9");
  });

  it("Open anyway checks again: trained on past a kept one, the notice asks again, naming what is forgotten now", async () => {
    const { assign } = await openOver([1, 2, 3, 4, 5, 6].map((s) => [s, 20]));
    expect(await back(9)).toBe(false);
    expect(useLab.getState().notice).toContain(
      "this browser will not keep its training (runs up to step 10)",
    );
    trainTo(30); // now it holds more than the kept ones: keeping it forgets one of them instead
    expect(await openAnyway()).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    const notice = useLab.getState().notice ?? "";
    expect(notice).not.toContain("will not keep");
    expect(notice).toContain(
      "If that one opens, this browser keeps its training (runs up to step 30) under Change… → Recent experiments. " +
        "To make room, it will forget the kept experiment with the least training (Sentiment · shipped SFT model · seed ",
    );
    expect(notice.match(/The address moved/g)).toHaveLength(1); // the new question replaces the old one
    trainTo(31); // the same outcome, a step further: asked once is enough
    expect(await openAnyway()).toBe(true);
    expect(assign).toHaveBeenCalledWith(seedLink(9));
  });
});

describe("what a link reopens, as the page opens it", () => {
  it("a link that cannot be read opens the default experiment without reopening a kept copy: it asks", async () => {
    // Seed 7 open (PPO at 10); the kept list is full, the default experiment (seed 0) among them.
    await openOver(
      [0, 1, 2, 3, 4, 5].map((s) => [s, 20]),
      7,
    );
    setHash("#s=garbage!!");
    expect(await leaveFor(location.href, undefined, true)).toBe(false);
    expect(page.loc.reload).not.toHaveBeenCalled();
    expect(useLab.getState().notice).toContain(
      "The address moved to a link that cannot be read (the default experiment, Sentiment · shipped SFT model · seed 0, would open)",
    );
    expect(useLab.getState().notice).toContain(
      "this browser will not keep its training (runs up to step 10)",
    );
  });

  it("the same experiment with an untrained run's settings changed leaves at once: PPO resumes, nothing is dropped", async () => {
    await openOver([
      [1, 20],
      [2, 20],
      [3, 3],
      [4, 20],
      [5, 20],
      [6, 20],
    ]);
    const d = defaultExperiment();
    const link = {
      ...d,
      runs: d.runs.map((r) => (r.id === "dpo-1" ? { ...r, config: { ...r.config, lr: 3.7e-4 } } : r)),
    };
    setHash(`#${encode(link)}`);
    expect(await leaveFor(location.href, undefined, true)).toBe(true);
    expect(useLeaveAsk.getState().ask).toBeNull();
    expect(page.loc.reload).toHaveBeenCalledTimes(1);
  });

  it("a link of this experiment that leaves the trained run out asks (its training is kept, or not, as for another)", async () => {
    await openOver([1, 2, 3, 4, 5, 6].map((s) => [s, 20]));
    const d = defaultExperiment();
    setHash(`#${encode({ ...d, runs: d.runs.slice(1) })}`);
    expect(await leaveFor(location.href, undefined, true)).toBe(false);
    expect(useLab.getState().notice).toContain(
      "The address moved to a link of this experiment (Sentiment · shipped SFT model · seed 0) that does not resume all its trained runs",
    );
    expect(useLab.getState().notice).toContain(
      "this browser will not keep its training (runs up to step 10)",
    );
  });
});

describe("when this tab's training is not saved", () => {
  it("while saving fails: says what the Change… dialog says, and asks though the list has room", async () => {
    await openOver([[1, 20]]);
    useLab.getState().setSaveFailed("Saving the lab in this browser failed: the disk is full.");
    expect(await back(9)).toBe(false);
    expect(page.loc.reload).not.toHaveBeenCalled();
    expect(useLab.getState().notice).toBe(
      "The address moved to another experiment (Sentiment · shipped SFT model · seed 9), so this one stays open " +
        "until you choose. Saving is failing (the disk is full): only what was saved before, not the training up " +
        "to step 10, would be kept under Recent experiments if that one opens.",
    );
  });

  it("a tab another one took saving from: the question does not repeat the notice's line about who saves", async () => {
    await openOver([[1, 20]]);
    useLab.getState().setSaveFailed(null); // an earlier test's
    const other = new BroadcastChannel(SAVING_CHANNEL); // another tab opens the lab: it saves from now on
    other.postMessage({ kind: "start", tab: "zzz", at: Date.now() + 5 });
    try {
      await vi.waitFor(() => expect(useSavingTabs.getState().state).toBe("elsewhere"));
      await vi.waitFor(() => expect(useLab.getState().saving).toBeNull()); // this tab's savers stopped
      expect(useLab.getState().notice).toBe(takenOverLine("opened"));
      trainTo(11);
      expect(await back(9)).toBe(false);
      const question =
        "The address moved to another experiment (Sentiment · shipped SFT model · seed 9), so this one stays " +
        "open until you choose. If that one opens, the training this tab did not save (runs up to step 11) is lost.";
      // It once added "This tab no longer saves (another tab does): …" after the notice's "… this tab no longer saves.".
      expect(useLab.getState().notice).toBe(`${takenOverLine("opened")} ${question}`);
      // The notice dismissed (its line gone), the question says it itself.
      useLab.getState().setNotice(null);
      noticeDismissed();
      expect(await back(8)).toBe(false);
      expect(useLab.getState().notice).toMatch(
        /is lost\. This tab no longer saves \(another tab does\): only what/,
      );
    } finally {
      other.close();
    }
  });

  it("a tab that does not save asks in the page; Open anyway then leaves without the browser's own prompt", async () => {
    // No storage: this tab saves nothing, and the browser asks before unloading once it trained.
    setHash(`#${encode(defaultExperiment())}`);
    opened.session = await openLab({
      ...fakeDeps(newDbName()).deps,
      openPersistence: () => Promise.reject(new Error("no IndexedDB")),
    });
    expect(useLab.getState().saving).toBeNull();
    const here = page.loc.hash;
    const assign = vi.fn();
    Object.assign(page.loc, { assign });
    useLab.getState().upsertRun(useLab.getState().spec.runs[0]);
    trainTo(1);
    expect(await back(9)).toBe(false);
    expect(page.loc.hash).toBe(here);
    expect(useLab.getState().notice).toContain(
      "If that one opens, the training this tab did not save (runs up to step 1) is lost.",
    );
    // A reload or a closed tab: the browser asks "Leave site?".
    const asks = () => !window.dispatchEvent(new Event("beforeunload", { cancelable: true }));
    expect(asks()).toBe(true);
    // Open anyway (confirmed in the page): the page opens the link, and the browser does not ask a second time
    // (answered Stay, the page would stay half gone).
    expect(await openAnyway()).toBe(true);
    expect(assign).toHaveBeenCalledWith(seedLink(9));
    expect(asks()).toBe(false);
    // That navigation over (the page still here, say): a reload asks again.
    await new Promise((r) => setTimeout(r, 0));
    expect(asks()).toBe(true);
  });
});
