/**
 * The lesson picker's confirmation (src/ui/lessons/LessonPicker.tsx, picker_lines.ts): a lesson kept under Recent
 * experiments — played in free play, then replaced — reopens where its runs stopped, and the card says so, naming
 * their steps as the Change… dialog does (src/ui/lab/keep_room.ts reopenedBy, reopensText).
 */
import { describe, expect, it } from "vitest";
import type { ArchiveEntry } from "../../src/lab/archive";
import { defaultExperiment } from "../../src/lab/defaults";
import { LESSONS } from "../../src/lab/presets/index";
import { hereOf, NO_ROOM, reopenedBy, roomFor } from "../../src/ui/lab/keep_room";
import { matchesLink } from "../../src/ui/lab/session_lines";
import type { RunState } from "../../src/ui/lab_store";
import { lessonConfirm, lessonConfirmText } from "../../src/ui/lessons/picker_lines";

const LESSON = LESSONS["ppo-dpo-grpo"];

/** The lesson after "Free play" (no preset), kept with each run at `step`. */
function freePlayKept(step: number): ArchiveEntry {
  const { preset: _lesson, ...spec } = LESSON.experiment(0);
  return {
    id: "free",
    spec,
    runs: spec.runs.map((r) => ({ label: r.label, algo: r.algo, step })),
    pipeline: false,
    savedAt: 1,
    signature: "free",
  };
}

/** The lab's runs of the default experiment on seed 7, each at `step`. */
function lab(step: number) {
  const spec = { ...defaultExperiment(), seed: 7 };
  const runs: Record<string, RunState> = {};
  for (const r of spec.runs)
    runs[r.id] = { spec: r, status: "paused", step, history: [], markers: [], samples: [], error: null };
  return { spec, runs };
}

describe("the lesson picker's confirmation", () => {
  it("says that a lesson kept from its free play reopens where its runs stopped, naming their steps", () => {
    const kept = [freePlayKept(1)];
    const target = LESSON.experiment(0);
    const reopens = reopenedBy(kept, target);
    expect(reopens).toBe(kept[0]);
    const { spec, runs } = lab(4);
    const room = roomFor(kept, hereOf(spec, runs, false), target);
    expect(room).toEqual(NO_ROOM); // reopening swaps it out of the list first: nothing forgotten
    const labels = target.runs.map((r) => `${r.label} at step 1`).join(", ");
    expect(
      lessonConfirmText({
        title: LESSON.title,
        keeping: { steps: 4, compared: 0, pipeline: false, room },
        saves: true,
        reopens,
        stopFirst: null,
      }),
    ).toBe(
      `Open the lesson “${LESSON.title}”? It replaces this experiment. This browser keeps its training (runs up ` +
        `to step 4) under Change… → Recent experiments. “${LESSON.title}” is kept under Recent experiments: it ` +
        `reopens where its runs stopped (${labels}).`,
    );
  });

  it("says nothing of reopening when the lesson is not kept (another seed, or nothing kept)", () => {
    const other = { ...freePlayKept(1), spec: { ...freePlayKept(1).spec, seed: 3 } };
    expect(reopenedBy([other], LESSON.experiment(0))).toBeUndefined();
    const text = lessonConfirmText({
      title: LESSON.title,
      keeping: { steps: 4, compared: 0, pipeline: false, room: NO_ROOM },
      saves: true,
      reopens: undefined,
      stopFirst: null,
    });
    expect(text).not.toMatch(/reopens/);
    expect(text).toBe(
      `Open the lesson “${LESSON.title}”? It replaces this experiment. This browser keeps its training (runs up ` +
        "to step 4) under Change… → Recent experiments.",
    );
  });

  it("says the open runs go on when they are the lesson's own (its free play), not that it replaces them", () => {
    const { preset: _lesson, ...freePlay } = LESSON.experiment(0);
    expect(matchesLink(freePlay, LESSON.experiment(0))).toBe(true); // what LessonPicker.tsx passes as `resumes`
    expect(matchesLink({ ...freePlay, seed: 3 }, LESSON.experiment(0))).toBe(false);
    const text = lessonConfirmText({
      title: LESSON.title,
      keeping: { steps: 4, compared: 0, pipeline: false, room: NO_ROOM },
      saves: true,
      reopens: undefined,
      stopFirst: null,
      resumes: true,
    });
    expect(text).toBe(
      `Open the lesson “${LESSON.title}”? Its runs are the ones open here (the same settings): they go on from ` +
        "where they are, with the lesson's notes and step limit.",
    );
    expect(text).not.toMatch(/replaces/);
  });

  it("is what the picker passes: the card's input from what it knows names the kept lesson and the resuming runs", () => {
    const { spec, runs } = lab(4);
    const kept = [freePlayKept(1)];
    const state = {
      title: LESSON.title,
      lesson: LESSON.experiment(0),
      open: spec,
      steps: 4,
      compared: 0,
      pipeline: false,
      saves: true,
      room: roomFor(kept, hereOf(spec, runs, false), LESSON.experiment(0)),
      kept,
      stopFirst: null,
    };
    const labels = LESSON.experiment(0)
      .runs.map((r) => `${r.label} at step 1`)
      .join(", ");
    expect(lessonConfirmText(lessonConfirm(state))).toBe(
      `Open the lesson “${LESSON.title}”? It replaces this experiment. This browser keeps its training (runs up ` +
        `to step 4) under Change… → Recent experiments. “${LESSON.title}” is kept under Recent experiments: it ` +
        `reopens where its runs stopped (${labels}).`,
    );
    // Nothing trained: no line on keeping; the list not read yet: nothing said of reopening.
    expect(lessonConfirm({ ...state, steps: 0, kept: null })).toMatchObject({
      keeping: null,
      reopens: undefined,
    });
    // Open on the lesson's free play: its runs go on.
    const { preset: _lesson, ...freePlay } = LESSON.experiment(0);
    expect(lessonConfirmText(lessonConfirm({ ...state, open: freePlay }))).toMatch(
      /^Open the lesson “[^”]+”\? Its runs are the ones open here/,
    );
  });
});
