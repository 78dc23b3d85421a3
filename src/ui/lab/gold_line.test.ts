import { describe, expect, it } from "vitest";
import type { RunState } from "../lab_store";
import { goldDiffers } from "./visible_runs";

const run = (reward: string | undefined, points: [number, number][]): RunState => ({
  spec: { id: "r", algo: "grpo", label: "GRPO", config: reward === undefined ? {} : { reward } },
  status: "paused",
  step: points.length,
  history: points.map(([r, g], i) => ({
    step: i + 1,
    samples: 0,
    tokens: 0,
    metrics: { reward: r, reward_gold: g },
  })),
  markers: [],
  samples: [],
  error: null,
});

describe("the reward chart's gold line", () => {
  it("is drawn for a run on a learned reward model from the start, and for one whose reward ever differed", () => {
    expect(goldDiffers({ run: run("proxy", []), colour: "red" })).toBe(true);
    expect(
      goldDiffers({
        run: run("gold", [
          [0.2, 0.2],
          [0.4, 0.4],
        ]),
        colour: "red",
      }),
    ).toBe(false);
    expect(goldDiffers({ run: run(undefined, [[0.2, 0.2]]), colour: "red" })).toBe(false);
    // Back on gold after some proxy steps: its gold line still shows where the two parted.
    expect(
      goldDiffers({
        run: run("gold", [
          [0.7, 0.1],
          [0.3, 0.3],
        ]),
        colour: "red",
      }),
    ).toBe(true);
  });
});
