import { describe, expect, it } from "vitest";
import {
  allAtStop,
  HANDED_OFF_LINE,
  stopNotice,
  withoutStopSentence,
  withoutTrainingAsks,
  withStopSentence,
} from "./client_notices";

describe("the notice's sentences that ask for training", () => {
  const other = "3 kernels fell back to the CPU.";

  it("knows when every trained run is at the stop step", () => {
    const runs = [
      { status: "paused", step: 5 },
      { status: "error", step: 1 },
      { status: "paused", step: 2, comparison: true },
    ];
    expect(allAtStop(runs, 5)).toBe(true);
    expect(allAtStop(runs, 6)).toBe(false);
    expect(allAtStop(runs, 0)).toBe(false);
    expect(allAtStop([{ status: "error", step: 9 }], 5)).toBe(false);
  });

  it("drops the stop-step sentence when the stop step is raised or cleared, and keeps the rest", () => {
    expect(withoutStopSentence(`${other} ${stopNotice(1)}`)).toBe(other);
    expect(withoutStopSentence(stopNotice(12))).toBeNull();
    // The Pipeline's "Press Play" sentence still holds: it goes only when training starts.
    expect(withoutStopSentence(`${HANDED_OFF_LINE} ${stopNotice(3)}`)).toBe(HANDED_OFF_LINE);
    expect(withoutStopSentence(other)).toBe(other);
    expect(withoutStopSentence(null)).toBeNull();
  });

  it("Play at the stop step adds its sentence, once, and keeps the rest", () => {
    expect(withStopSentence(other, 3)).toBe(`${other} ${stopNotice(3)}`);
    expect(withStopSentence(`${other} ${stopNotice(3)}`, 2)).toBe(`${other} ${stopNotice(2)}`);
    expect(withStopSentence(null, 5)).toBe(stopNotice(5));
  });

  it("drops every ask once training starts", () => {
    expect(withoutTrainingAsks(`${other} ${HANDED_OFF_LINE} ${stopNotice(4)}`)).toBe(other);
    expect(withoutTrainingAsks(`${HANDED_OFF_LINE}`)).toBeNull();
  });
});
