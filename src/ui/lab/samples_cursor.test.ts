import { describe, expect, it } from "vitest";
import { cursorMove } from "./cursor_move";

describe("the samples' keyboard token cursor", () => {
  it("moves by one with the arrows, clamped at both ends", () => {
    expect(cursorMove("ArrowRight", 0, 5)).toBe(1);
    expect(cursorMove("ArrowRight", 4, 5)).toBe(4);
    expect(cursorMove("ArrowLeft", 3, 5)).toBe(2);
    expect(cursorMove("ArrowLeft", 0, 5)).toBe(0);
  });
  it("starts at the first token when the sample has no cursor yet (after Escape)", () => {
    expect(cursorMove("ArrowRight", -1, 5)).toBe(0);
    expect(cursorMove("ArrowLeft", -1, 5)).toBe(0);
    expect(cursorMove("End", -1, 5)).toBe(4);
  });
  it("jumps to the ends with Home/End", () => {
    expect(cursorMove("Home", 3, 5)).toBe(0);
    expect(cursorMove("End", 1, 5)).toBe(4);
  });
  it("leaves other keys and empty samples to the page", () => {
    expect(cursorMove(" ", 1, 5)).toBeNull();
    expect(cursorMove("Tab", 1, 5)).toBeNull();
    expect(cursorMove("ArrowRight", 0, 0)).toBeNull();
  });
});
