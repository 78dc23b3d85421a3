/**
 * The scheduler's rounds (src/lab/sched_rounds.ts) on bare step counters: one turn each, two in a row for a run
 * behind, and a second turn dropped when the run caught up meanwhile (its step in flight landed).
 */
import { describe, expect, it } from "vitest";
import { Rounds } from "../../src/lab/sched_rounds";

describe("scheduler rounds", () => {
  it("gives a run behind two turns in a row, the others one, in order", () => {
    const a = { step: 3 };
    const b = { step: 2 };
    const c = { step: 3 };
    const r = new Rounds<{ step: number }>();
    const can = () => [a, b, c];
    expect([r.next(can), r.next(can), r.next(can), r.next(can)]).toEqual([a, b, b, c]);
  });

  it("drops a run's second turn once its step in flight landed and it is level", () => {
    const a = { step: 1 };
    const b = { step: 0 };
    const r = new Rounds<{ step: number }>();
    const can = () => [a, b];
    expect(r.next(can)).toBe(a);
    expect(r.next(can)).toBe(b);
    b.step = 1; // b's step that was in flight lands: level with a
    expect(r.next(can)).toBe(a); // a new round, not b's second turn
  });

  it("skips a run that can no longer step, and returns null when none can", () => {
    const a = { step: 0 };
    const b = { step: 0 };
    const r = new Rounds<{ step: number }>();
    expect(r.next(() => [a, b])).toBe(a);
    expect(r.next(() => [a])).toBe(a); // b's turn lost: a new round
    expect(r.next(() => [])).toBeNull();
  });
});
