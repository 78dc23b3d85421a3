/**
 * Moves that come while the page is already leaving (src/ui/lab/saving.ts leaveFor): Back or Forward while the
 * open experiment is saved before an in-page confirmed leave ("Open the link anyway") opens the latest address
 * (or asks about it); a Change… or lesson applied while a kept experiment is reopened stays with it when that
 * reopen fails (it once answered "left" at once, and Change… stayed on "Saving this one…" for good).
 */
import { describe, expect, it, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { encode } from "../../src/lab/url";
import { useLeaveAsk } from "../../src/ui/lab/history_leave";
import { openAnyway } from "../../src/ui/lab/open_anyway";
import { hashChanged, leaveFor, openRecent, openSaving, recentExperiments } from "../../src/ui/lab/saving";
import { useLab } from "../../src/ui/lab_store";
import { back, openOver, seedLink, stubLeavePage } from "./leave_page";
import { page, setHash } from "./session_page";

stubLeavePage();

/** Hold the open lab's next save (its autosaver's flush) until `release`; `entered` resolves once it began. */
function holdSave() {
  const saving = openSaving();
  if (!saving) throw new Error("the lab does not save");
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  let began = () => {};
  const entered = new Promise<void>((r) => {
    began = r;
  });
  const flush = saving.autosaver.flush;
  vi.spyOn(saving.autosaver, "flush").mockImplementation(async () => {
    began();
    await held;
    return flush();
  });
  return { entered, release };
}

/** Back (or Forward) to seed `seed`'s link while a leave is under way: the address moves, the page is told. */
function backAgain(seed: number) {
  setHash(`#${encode({ ...defaultExperiment(), seed })}`);
  hashChanged();
}

/** An open lab (seed 1, at step 20) reopening its kept experiment, whose record cannot be read. */
async function failingReopen() {
  const { here, push } = await openOver([[1, 20]]);
  const [entry] = await recentExperiments();
  const saving = openSaving();
  if (!saving) throw new Error("the lab does not save");
  vi.spyOn(saving.persistence.archive, "swapIn").mockRejectedValueOnce(
    new Error("its record cannot be read"),
  );
  return { here, push, reopen: openRecent(entry.id) };
}

describe("Back again while the page saves before leaving", () => {
  it("after Open anyway: the latest address opens (a kept one: nothing lost), not the one asked about", async () => {
    const { assign } = await openOver([1, 2, 3, 4, 5, 6].map((s) => [s, 20]));
    expect(await back(9)).toBe(false); // asked: this one would not be kept
    const { entered, release } = holdSave();
    const opening = openAnyway();
    await entered; // saving the open experiment before it leaves for seed 9
    backAgain(4); // seed 4 is kept: reopening it swaps it out, nothing is forgotten
    release();
    expect(await opening).toBe(true);
    // The address is seed 4's: the page reloads into it (assigning seed 9's link would open the older one).
    expect(assign).not.toHaveBeenCalled();
    expect(page.loc.reload).toHaveBeenCalledTimes(1);
  });

  it("after Open anyway: the latest address is asked about when leaving for it would lose training", async () => {
    const { assign, here } = await openOver([1, 2, 3, 4, 5, 6].map((s) => [s, 20]));
    expect(await back(9)).toBe(false);
    const { entered, release } = holdSave();
    const opening = openAnyway();
    await entered;
    backAgain(8);
    release();
    expect(await opening).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    expect(page.loc.reload).not.toHaveBeenCalled();
    expect(page.loc.hash).toBe(here); // the address is this experiment's again
    expect(useLeaveAsk.getState().ask?.url).toBe(seedLink(8));
    const notice = useLab.getState().notice ?? "";
    expect(notice).toContain(
      "The address moved to another experiment (Sentiment · shipped SFT model · seed 8)",
    );
    expect(notice).not.toContain("seed 9");
    // Open anyway now opens seed 8's link.
    expect(await openAnyway()).toBe(true);
    expect(assign).toHaveBeenCalledWith(seedLink(8));
  });
});

describe("a leave while a kept experiment is reopened", () => {
  it("stays when the reopen fails (Change… comes back usable); a later leave goes", async () => {
    const { assign } = await openOver([[1, 20]]);
    const [entry] = await recentExperiments();
    const saving = openSaving();
    if (!saving) throw new Error("the lab does not save");
    vi.spyOn(saving.persistence.archive, "swapIn").mockRejectedValueOnce(
      new Error("its record cannot be read"),
    );
    const reopen = openRecent(entry.id);
    const changed = leaveFor(seedLink(7)); // Change… applied meanwhile
    await expect(reopen).rejects.toThrow(/its record cannot be read/);
    expect(await changed).toBe(false); // it once answered true at once: "Saving this one…" for good
    expect(assign).not.toHaveBeenCalled();
    expect(await leaveFor(seedLink(7))).toBe(true); // not stuck leaving
    expect(assign).toHaveBeenCalledWith(seedLink(7));
  });

  it("Back while a reopen fails: the address goes back to this experiment's", async () => {
    const { here, push, reopen } = await failingReopen();
    const moved = back(5);
    await expect(reopen).rejects.toThrow(/its record cannot be read/);
    expect(await moved).toBe(false);
    expect(page.loc.hash).toBe(here);
    expect(push).toHaveBeenCalledTimes(1);
  });

  it("Back twice while a reopen fails: this experiment's address comes back as one history entry", async () => {
    const { here, push, reopen } = await failingReopen();
    backAgain(5);
    backAgain(6);
    await expect(reopen).rejects.toThrow(/its record cannot be read/);
    await vi.waitFor(() => expect(page.loc.hash).toBe(here));
    await new Promise((r) => setTimeout(r, 50)); // every Back's answer has come
    // One entry, not one per Back (a review's note; writeUrlNow pushes only when the address is not current).
    expect(push).toHaveBeenCalledTimes(1);
  });
});
