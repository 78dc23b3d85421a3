import { describe, expect, it } from "vitest";
import {
  PROGRESS_EVERY_MS,
  type TransportState,
  transportAnnouncement,
  transportSpeech,
} from "./TrainingAnnouncer";

const at = (playing: boolean, step: number, total: number, atStop = false): TransportState => ({
  playing,
  step,
  total,
  atStop,
});

describe("the transport's announcements", () => {
  it("says training started, paused where, or stopped at the stop step", () => {
    expect(transportAnnouncement(true, 3, false)).toBe("Training.");
    expect(transportAnnouncement(false, 7, false)).toBe("Paused at step 7.");
    expect(transportAnnouncement(false, 12, true)).toBe("Stopped at step 12: every run reached “Stop at”.");
  });

  it("speaks when playing starts or stops, and when steps land while paused", () => {
    expect(transportSpeech(at(false, 3, 9), at(true, 3, 9), 0, 0)).toBe("Training.");
    expect(transportSpeech(at(true, 6, 18), at(false, 6, 18), 0, 0)).toBe("Paused at step 6.");
    expect(transportSpeech(at(true, 9, 27), at(false, 10, 30, true), 0, 10)).toBe(
      "Stopped at step 10: every run reached “Stop at”.",
    );
    // Step pressed while paused; and a slow run's last step bringing every run to the stop step.
    expect(transportSpeech(at(false, 3, 9), at(false, 4, 12), 0, 0)).toBe("Paused at step 4.");
    expect(transportSpeech(at(false, 10, 28), at(false, 10, 30, true), 0, 10)).toBe(
      "Stopped at step 10: every run reached “Stop at”.",
    );
  });

  it("is quiet when a run is added or removed, or Stop at changes, while paused", () => {
    // A run added at step 0 (no longer all at the stop step), then removed again.
    expect(transportSpeech(at(false, 12, 36, true), at(false, 12, 36, false), 0, 12)).toBeNull();
    expect(transportSpeech(at(false, 12, 36, false), at(false, 12, 36, true), 0, 12)).toBeNull();
    // A trained run removed.
    expect(transportSpeech(at(false, 12, 36), at(false, 12, 24), 0, 0)).toBeNull();
  });

  it("names the step reached while training, at most every 30 s, of the stop step when there is one", () => {
    expect(PROGRESS_EVERY_MS).toBe(30_000);
    expect(transportSpeech(at(true, 4, 12), at(true, 5, 15), 29_000, 0)).toBeNull();
    expect(transportSpeech(at(true, 4, 12), at(true, 5, 15), 30_000, 0)).toBe("Step 5.");
    expect(transportSpeech(at(true, 4, 12), at(true, 5, 15), 45_000, 300)).toBe("Step 5 of 300.");
    expect(transportSpeech(at(true, 5, 15), at(true, 5, 16), 45_000, 300)).toBeNull();
  });
});
