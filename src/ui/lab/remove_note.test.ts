import { describe, expect, it } from "vitest";
import { forkedNote } from "./forked_note";

describe("Remove's confirmation for a fork", () => {
  it("says how many of its steps are its own", () => {
    expect(forkedNote({ step: 4 }, 5)).toBe(" (1 since it was forked at step 4)");
    expect(forkedNote({ step: 4 }, 4)).toBe(" (0 since it was forked at step 4)");
    expect(forkedNote(undefined, 5)).toBe("");
    expect(forkedNote({ step: 0 }, 5)).toBe(""); // forked before any step: all its own
  });
});
