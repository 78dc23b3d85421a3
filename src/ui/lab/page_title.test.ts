import { describe, expect, it } from "vitest";
import { pageTitle } from "./page_title";

describe("pageTitle (the browser tab)", () => {
  it("names the lesson, else the task; the step once trained; ▶ while training", () => {
    expect(pageTitle({ task: "sentiment" }, 0, false)).toBe("Sentiment — RLHF Playground");
    expect(pageTitle({ task: "arithmetic" }, 12, false)).toBe("Arithmetic · step 12 — RLHF Playground");
    expect(pageTitle({ task: "arithmetic", preset: "overoptimisation" }, 38, true)).toBe(
      "▶ Reward over-optimisation · step 38 — RLHF Playground",
    );
  });
  it("falls back to the task for a lesson this version does not have", () => {
    expect(pageTitle({ task: "sentiment", preset: "gone" as never }, 3, true)).toBe(
      "▶ Sentiment · step 3 — RLHF Playground",
    );
  });
});
