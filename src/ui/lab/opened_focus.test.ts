/** What a screen reader hears once an experiment opened from the page is ready, and the tab's one-shot flag. */
import { describe, expect, it } from "vitest";
import { testExperiment } from "../../lab/defaults";
import { KL_ESTIMATORS } from "../../lab/presets/lessons_rl";
import { openedSentence } from "./opened_focus";
import { raiseTabFlag, takeTabFlag } from "./tab_flag";

describe("an experiment opened from the page", () => {
  it("names the lesson with its number and length, or the experiment and its runs, then how to start", () => {
    expect(openedSentence(KL_ESTIMATORS.experiment(0))).toBe(
      "Lesson 3 opened: KL estimators k1, k2, k3, 16 steps. Press Play (or space) to train.",
    );
    expect(openedSentence({ ...testExperiment(), seed: 3 })).toBe(
      "Opened Arithmetic · nano (random init) · seed 3, with PPO, DPO, GRPO. Press Play (or space) to train.",
    );
  });

  it("asks the next load once (the flag is used up), and storage that throws asks nothing", () => {
    const items = new Map<string, string>();
    const store = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    };
    expect(takeTabFlag("k", store)).toBe(false);
    raiseTabFlag("k", store);
    expect(takeTabFlag("k", store)).toBe(true);
    expect(takeTabFlag("k", store)).toBe(false);
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {},
    };
    raiseTabFlag("k", broken);
    expect(takeTabFlag("k", broken)).toBe(false);
  });
});
