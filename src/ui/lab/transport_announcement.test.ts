import { describe, expect, it } from "vitest";
import { transportAnnouncement } from "./TrainingAnnouncer";

describe("the transport's announcements", () => {
  it("says training started, paused where, or stopped at the stop step", () => {
    expect(transportAnnouncement(true, 3, false)).toBe("Training.");
    expect(transportAnnouncement(false, 7, false)).toBe("Paused at step 7.");
    expect(transportAnnouncement(false, 12, true)).toBe("Stopped at step 12: every run reached “Stop at”.");
  });
});
