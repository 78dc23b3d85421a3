import { describe, expect, it } from "vitest";
import { DISCARDED_LINE, discardedLine, FROZEN_MIN_MS, frozenLine, noticeWhenThawed } from "./frozen";

describe("a page the browser froze or discarded", () => {
  it("says how long the runs stood still once a freeze that began while they trained ends", () => {
    const doc = new EventTarget();
    let t = 1000;
    let training = true;
    const said: string[] = [];
    const stop = noticeWhenThawed(
      (l) => said.push(l),
      () => training,
      doc,
      () => t,
    );
    doc.dispatchEvent(new Event("freeze"));
    t += 12 * 60_000;
    doc.dispatchEvent(new Event("resume"));
    expect(said).toEqual([frozenLine(12 * 60_000)]);
    expect(said[0]).toMatch(/^The browser paused this tab for 12 min 00 s \(it freezes background tabs/);
    // Short (a moment away), or while paused: nothing to say.
    doc.dispatchEvent(new Event("freeze"));
    t += FROZEN_MIN_MS - 1;
    doc.dispatchEvent(new Event("resume"));
    training = false;
    doc.dispatchEvent(new Event("freeze"));
    t += 10 * FROZEN_MIN_MS;
    doc.dispatchEvent(new Event("resume"));
    // A resume without a freeze seen (listening began while frozen) says nothing either.
    doc.dispatchEvent(new Event("resume"));
    expect(said).toHaveLength(1);
    stop();
    training = true;
    doc.dispatchEvent(new Event("freeze"));
    t += 10 * FROZEN_MIN_MS;
    doc.dispatchEvent(new Event("resume"));
    expect(said).toHaveLength(1);
  });

  it("writes the time for seconds, minutes and hours", () => {
    expect(frozenLine(45_400)).toContain("for 45 s ");
    expect(frozenLine(125 * 60_000)).toContain("for 2 h 05 min ");
  });

  it("tells a reload after a discard", () => {
    expect(discardedLine({ wasDiscarded: true })).toBe(DISCARDED_LINE);
    expect(discardedLine({ wasDiscarded: false })).toBeNull();
    expect(discardedLine({})).toBeNull();
    expect(discardedLine(null)).toBeNull();
  });
});
