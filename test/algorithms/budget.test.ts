import { describe, expect, it } from "vitest";
import { completionBudget, type RunEnv } from "../../src/algorithms/run";

/** Only the fields completionBudget reads. */
function env(contextLength: number, maxLength: number): RunEnv {
  return { policy: { config: { contextLength } }, prompts: { maxLength } } as unknown as RunEnv;
}

describe("completionBudget", () => {
  it("keeps a request that fits and caps one that does not at context − P", () => {
    expect(completionBudget(env(128, 20), 48)).toBe(48);
    // The shipped arithmetic model: 16-token context, 7-token prompts: 48 becomes 9.
    expect(completionBudget(env(16, 7), 48)).toBe(9);
    expect(completionBudget(env(16, 7), 9)).toBe(9);
    // An explicit P (DPO: the longest of the prompts and the preference pairs' prompts).
    expect(completionBudget(env(16, 7), 48, 10)).toBe(6);
  });
  it("throws when the prompts fill the context", () => {
    expect(() => completionBudget(env(16, 16), 4)).toThrow(/no room/);
  });
});
