import { describe, expect, it } from "vitest";
import {
  PROGRESS_EVERY_MS,
  type TransportState,
  transportAnnouncement,
  transportSpeech,
} from "./transport_speech";

/** Three runs, the first two at `step`, the third at `third` (default `step`); absent runs as given. */
const at = (
  playing: boolean,
  step: number,
  third: number | null = step,
  atStop = false,
  extra: Record<string, number> = {},
): TransportState => ({
  playing,
  step,
  steps: { a: step, b: step, ...(third === null ? {} : { c: third }), ...extra },
  atStop,
});

describe("the transport's announcements", () => {
  it("says training started, paused where, or stopped at the stop step", () => {
    expect(transportAnnouncement(true, 3, false)).toBe("Training.");
    expect(transportAnnouncement(false, 7, false)).toBe("Paused at step 7.");
    expect(transportAnnouncement(false, 12, true)).toBe("Stopped at step 12: every run reached “Stop at”.");
  });

  it("speaks when playing starts or stops, and when steps land while paused", () => {
    expect(transportSpeech(at(false, 3), at(true, 3), 0, 0)).toBe("Training.");
    expect(transportSpeech(at(true, 6), at(false, 6), 0, 0)).toBe("Paused at step 6.");
    expect(transportSpeech(at(true, 9), at(false, 10, 10, true), 0, 10)).toBe(
      "Stopped at step 10: every run reached “Stop at”.",
    );
    // Step pressed while paused; and a slow run's last step bringing every run to the stop step.
    expect(transportSpeech(at(false, 3), at(false, 4), 0, 0)).toBe("Paused at step 4.");
    expect(transportSpeech(at(false, 10, 8), at(false, 10, 10, true), 0, 10)).toBe(
      "Stopped at step 10: every run reached “Stop at”.",
    );
  });

  it("is quiet when a run is added, duplicated, imported or removed, or Stop at changes, while paused", () => {
    // A run added at step 0 (no longer all at the stop step), then removed again.
    expect(transportSpeech(at(false, 12, 12, true), at(false, 12, 12, false, { d: 0 }), 0, 12)).toBeNull();
    expect(transportSpeech(at(false, 12, 12, false, { d: 0 }), at(false, 12, 12, true), 0, 12)).toBeNull();
    // A duplicate of a trained run, or an imported one, arrives at its source's step.
    expect(transportSpeech(at(false, 12, 12, true), at(false, 12, 12, true, { d: 12 }), 0, 12)).toBeNull();
    // A trained run removed; Stop at lowered to where the runs are.
    expect(transportSpeech(at(false, 12), at(false, 12, null), 0, 0)).toBeNull();
    expect(transportSpeech(at(false, 12), at(false, 12, 12, true), 0, 12)).toBeNull();
  });

  it("names the step reached while training, at most every 30 s, of the stop step when there is one", () => {
    expect(PROGRESS_EVERY_MS).toBe(30_000);
    expect(transportSpeech(at(true, 4), at(true, 5), 29_000, 0)).toBeNull();
    expect(transportSpeech(at(true, 4), at(true, 5), 30_000, 0)).toBe("Step 5.");
    expect(transportSpeech(at(true, 4), at(true, 5), 45_000, 300)).toBe("Step 5 of 300.");
    expect(transportSpeech(at(true, 5, 4), at(true, 5, 5), 45_000, 300)).toBeNull();
  });
});
