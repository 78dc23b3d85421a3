/**
 * The lesson card's progress: the furthest run's step of the lesson's length, the slowest one named while a
 * run catches up, "finished" once every run that trains got there; a run in error or imported for comparison
 * (neither steps) does not hold it back.
 */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { type RunState, stepRange } from "../lab_store";
import { hiddenItems, progressText, removedLessonRuns } from "./LessonCard";

const spec = (id: string): RunSpec => ({ id, algo: "grpo", label: id, config: {} });
const state = (id: string, step: number, extra: Partial<RunState> = {}): RunState => ({
  spec: spec(id),
  status: "paused",
  step,
  history: [],
  markers: [],
  samples: [],
  error: null,
  ...extra,
});
const progress = (runs: RunState[], steps = 12) => {
  const [top, low] = stepRange({ runs: Object.fromEntries(runs.map((r) => [r.spec.id, r])) });
  return progressText(top, low, steps);
};

describe("the lesson card's progress", () => {
  it("counts the furthest run and names the slowest while a run catches up", () => {
    expect(progress([state("a", 5), state("b", 5)])).toBe("step 5 of 12");
    expect(progress([state("a", 6), state("b", 5)])).toBe("step 6 of 12, slowest run at 5");
    expect(progress([state("a", 12), state("b", 12), state("c", 3)])).toBe("step 12 of 12, slowest run at 3");
    expect(progress([state("a", 12), state("b", 12)])).toBe("finished");
    // Raised past the lesson's length in Stop at: still finished.
    expect(progress([state("a", 20), state("b", 15)])).toBe("finished");
  });

  it("is not held back by a run in error or one imported for comparison", () => {
    const runs = [state("a", 12), state("b", 2, { status: "error" }), state("c", 0, { comparison: true })];
    expect(progress(runs)).toBe("finished");
    expect(progress([])).toBe("step 0 of 12");
    // Every run in error: where they stopped.
    expect(progress([state("a", 8, { status: "error" }), state("b", 7, { status: "error" })])).toBe(
      "step 8 of 12, slowest run at 7",
    );
  });
});

describe("the lesson card's removed runs", () => {
  it("names the lesson's runs that are gone, by id, in the lesson's order", () => {
    const lesson = [spec("grpo-g2"), { ...spec("grpo-g8"), label: "GRPO G = 8" }];
    expect(removedLessonRuns(lesson, [spec("grpo-g2"), spec("grpo-g8")])).toEqual([]);
    // A fork or another run added does not count; a run relabelled keeps its id.
    expect(removedLessonRuns(lesson, [spec("grpo-g8"), spec("grpo-g2-fork"), spec("ppo-1")])).toEqual([
      "grpo-g2",
    ]);
    expect(removedLessonRuns(lesson, [])).toEqual(["grpo-g2", "GRPO G = 8"]);
  });
});

describe("what to watch: the items a short window hides", () => {
  // Four items of heights 40, 60, 50, 30 px stacked from 0, in a list 120 px tall.
  const list = (scrollTop: number) => {
    let top = 0;
    const children = [40, 60, 50, 30].map((h) => {
      const item = { offsetTop: top, offsetHeight: h };
      top += h;
      return item;
    });
    return { scrollTop, clientHeight: 120, children } as unknown as HTMLElement;
  };
  it("names the items that end below the visible part, none once scrolled to the end", () => {
    expect(hiddenItems(list(0))).toEqual([3, 4]); // items 3 and 4 end at 150 and 180, below 120
    expect(hiddenItems(list(20))).toEqual([3, 4]); // below 140
    expect(hiddenItems(list(28))).toEqual([4]); // item 3 ends 2 px below 148: shown but for its descenders
    expect(hiddenItems(list(60))).toEqual([]); // the end: 180
  });
});
