import { describe, expect, it } from "vitest";
import { rmAdvice, rmWeakness } from "./rm_weakness";

const result = (lastLoss: number, goldAccuracy: number, pairs = 32) => ({
  stage: "rm" as const,
  steps: 40,
  firstLoss: Math.LN2,
  lastLoss,
  seconds: 9,
  evalAfter: { step: 40, pairs, labelAccuracy: 0.5, goldAccuracy },
});

describe("the Pipeline's warning about a reward model that learned nothing", () => {
  it("warns when held-out gold agreement is within a coin's reach", () => {
    expect(rmWeakness(result(0.5, 0.65))).toBe(
      "Its reward model agrees with the gold order on 65\u00a0% of 32 held-out pairs, within what guessing gets on that many (a coin flip scores up to 67\u00a0% there, 97.5\u00a0% of the time).",
    );
    expect(rmWeakness(result(0.5, 0.65, 400))).toBeNull(); // 65 % of 400 pairs is no coin
  });

  it("warns when the loss ended at ln 2 even though the small held-out set happened to agree", () => {
    expect(rmWeakness(result(0.695, 0.688))).toBe(
      "Its reward model's Bradley–Terry loss ended at 0.695 nats, the ln 2 ≈ 0.693 of equal scores: it hardly tells a pair apart (it agrees with the gold order on 69\u00a0% of 32 held-out pairs).",
    );
    expect(rmWeakness(result(0.6, 0.8))).toBeNull();
    expect(rmWeakness(undefined)).toBeNull();
  });
});

describe("what the Pipeline advises about a weak reward model", () => {
  it("says to finish a stopped stage, points nano at the recipe, and tells tiny what the recipe reached", () => {
    const stopped = { ...result(0.69, 0.49, 256), steps: 4, planned: 1500 };
    expect(rmAdvice(stopped, "tiny (4 layers, C = 128, context 128)")).toBe(
      "It was stopped at step 4 of 1500: train it to the end before judging it.",
    );
    expect(rmAdvice(result(0.69, 0.5), "nano (2 layers, C = 32, context 32)")).toMatch(
      /^Training longer at nano size seldom helps.*“Shipped models' recipe” above/,
    );
    expect(rmAdvice(result(0.69, 0.5), "tiny (4 layers, C = 128, context 128)")).toMatch(
      /^A reward model needs a stage 1 that has learnt the task.*two pairs in three on arithmetic/,
    );
    expect(rmAdvice(undefined, undefined)).toMatch(/^Training longer at nano size/);
  });
});
