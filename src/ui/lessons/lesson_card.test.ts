/**
 * The lesson card's progress: the furthest run's step of the lesson's length, the slowest one named while a
 * run catches up, "finished" once every run that trains got there; a run in error or imported for comparison
 * (neither steps) does not hold it back.
 */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../lab/protocol";
import { type RunState, stepRange } from "../lab_store";
import {
  hiddenItems,
  lessonRunsBack,
  lessonTimeLeft,
  progressText,
  removedLessonRuns,
} from "./lesson_card_text";

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
    // Lowered below it (a few steps for a demo): stopped there, not finished.
    const [top, low] = stepRange({ runs: { a: state("a", 4), b: state("b", 4) } });
    expect(progressText(top, low, 4, 60)).toBe("stopped at step 4 of the lesson's 60 (Stop at)");
    expect(progressText(3, 3, 4, 60)).toBe("step 3 of 4");
    expect(progressText(60, 60, 60, 60)).toBe("finished");
    // Raised past its length: the check still reads its own steps (a reviewer saw "step 0 of 66" alone).
    expect(progressText(0, 0, 66, 16)).toBe("step 0 of 66 (the lesson's check: 16)");
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

  it("adds them back under their names, unless a run was renamed to one meanwhile", () => {
    const lesson = [{ ...spec("ppo-1"), label: "PPO" }, { ...spec("ppo-2"), label: "PPO 2" }, spec("dpo-1")];
    // PPO and PPO 2 removed, DPO renamed "PPO": each comes back under a free name.
    const now = [{ ...spec("dpo-1"), label: "PPO" }];
    expect(lessonRunsBack(lesson, now).map((r) => [r.id, r.label])).toEqual([
      ["ppo-1", "PPO 2"],
      ["ppo-2", "PPO 2 2"],
    ]);
    expect(lessonRunsBack(lesson, lesson)).toEqual([]);
    expect(lessonRunsBack(lesson, [])).toEqual(lesson);
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

describe("the lesson card's time left", () => {
  const timed = (id: string, times: number[], extra: Partial<RunState> = {}) =>
    state(id, times.length, {
      history: times.map((t, i) => ({ step: i + 1, samples: 0, tokens: 0, metrics: { step_time: t } })),
      ...extra,
    });

  it("sums each run's steps to go times its median step time, leaving out the first step (kernels built)", () => {
    // a: steps 2–4 took 2 s (step 1: 30 s), 296 to go; b: 4 s a step, 297 to go → 592 + 1188 s = 29 min 40 s.
    const runs = [timed("a", [30, 2, 2, 2]), timed("b", [4, 4, 4])];
    expect(lessonTimeLeft(runs, 300)).toBe("about 29 min 40 s left at this pace");
    expect(lessonTimeLeft([timed("a", [3600, 3600])], 300)).toBe("about 298 h 00 min left at this pace");
    // Under a Speed cap (steps a second per run) the longer of the two counts: at 1 step/s the compute, at 0.1
    // the cap (297 rounds × 10 s).
    expect(lessonTimeLeft(runs, 300, 1)).toBe("about 29 min 40 s left at this pace");
    expect(lessonTimeLeft(runs, 300, 0.1)).toBe("about 49 min 30 s left at this pace");
  });

  it("says nothing before every run still going has a timed step, or when nothing is left", () => {
    expect(lessonTimeLeft([timed("a", [2, 2]), state("b", 0)], 12)).toBeNull();
    expect(lessonTimeLeft([timed("a", [2, 2])], 2)).toBeNull();
    // A run in error or imported for comparison does not step: it neither counts nor holds the estimate back.
    expect(lessonTimeLeft([timed("a", [5]), state("x", 0, { status: "error" })], 3)).toBe(
      "about 10 s left at this pace",
    );
  });
});
