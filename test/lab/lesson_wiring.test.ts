/**
 * The places a lesson is wired into, beyond its own file (docs/adding-a-lesson.md): the e2e test's list, the test
 * fixtures' error messages, and README's word on the lessons whose check fails on the shipped models.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { E2E_LESSONS } from "../../e2e/lesson_scale";
import { LESSONS } from "../../src/lab/presets";
import { PRESET_IDS } from "../../src/lab/presets/ids";
import { type Lesson, lessonStatusMark, lessonStatusText, run } from "../../src/lab/presets/lesson";
import { lessonSpecProblems, showsOf } from "./lesson_fixtures";

describe("a lesson's wiring", () => {
  it("the e2e test opens every lesson, in the lab's order", () => {
    expect(E2E_LESSONS.map((l) => l.id)).toEqual([...PRESET_IDS]);
  });

  it("a lesson without a SHOWS history fails with its own message naming it", () => {
    expect(() => showsOf("ninth-lesson")).toThrow(/lesson "ninth-lesson" has no SHOWS history/);
  });

  it("a lesson's bad setting is reported with the lesson's id and the issue's text", () => {
    const base = LESSONS["grpo-groups"];
    const bad: Lesson = {
      ...base,
      experiment: (seed = 0) => ({
        ...base.experiment(seed),
        runs: [
          run("grpo-g2", "grpo", "GRPO G = 2", { batchPrompts: 16, numGenerations: 2, bogus: 1 }),
          run("grpo-g8", "grpo", "GRPO G = 8", { batchPrompts: 4, numGenerations: 100000 }),
        ],
      }),
    };
    const problems = lessonSpecProblems(bad);
    expect(
      problems.some((p) => /^grpo-groups: .*bogus/.test(p)),
      problems.join("\n"),
    ).toBe(true);
    expect(
      problems.some((p) => /^grpo-groups: .*numGenerations/.test(p)),
      problems.join("\n"),
    ).toBe(true);
    expect(lessonSpecProblems(base)).toEqual([]);
  });

  it("the status line says plainly whether the check passed on the shipped models", () => {
    expect(lessonStatusText({ kind: "fails-on-shipped", reason: "no gap." })).toBe(
      "Heads-up: on this lab's small models the effect below did not show: no gap.",
    );
    // The page says nothing only a repository reader would understand (a folder, "the shipped models").
    for (const id of PRESET_IDS) {
      const line = lessonStatusText(LESSONS[id].status);
      expect(line, id).not.toMatch(/docs\/|lesson-runs|shipped models/);
    }
    // A verified lesson's reason must not take it back ("… a rerun is due"): that lesson is unverified.
    for (const id of PRESET_IDS.filter((i) => LESSONS[i].status.kind === "verified"))
      expect(LESSONS[id].status.reason, id).not.toMatch(/rerun|run again|predate/);
    expect(lessonStatusMark(LESSONS["length-bias"].status)).toBe(" · effect not shown here");
    expect(lessonStatusMark(LESSONS["kl-estimators"].status)).toBe("");
    for (const id of PRESET_IDS) expect(LESSONS[id].status.reason.length, id).toBeGreaterThan(0);
  });

  it("README names exactly the lessons marked as failing on the shipped models", () => {
    const readme = readFileSync("README.md", "utf8").replace(/\s+/g, " ");
    const m = readme.match(
      /Lessons whose check fails on the shipped models \(their card says so\): ([^.]*)\./,
    );
    expect(
      m,
      "README's sentence 'Lessons whose check fails on the shipped models (their card says so): …'",
    ).not.toBeNull();
    const named = (m?.[1] ?? "").split(/, | and /).map((t) => t.trim());
    const failing = PRESET_IDS.filter((id) => LESSONS[id].status.kind === "fails-on-shipped");
    expect(named.sort()).toEqual(failing.map((id) => LESSONS[id].title).sort());
  });
});
