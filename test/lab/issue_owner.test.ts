/**
 * A run labelled as a settings table is named ("experiment", "view", "Pipeline") is not read as that table:
 * its issues name it by its place and label, in words, and are not taken for the experiment's (src/lab/spec_check.ts
 * checkRun, issueText; src/ui/lab/import_run.ts sorts a run file's issues by their "experiment." prefix).
 */
import { describe, expect, it } from "vitest";
import { parseRunFile, runFileJson } from "../../src/lab/export/run_file";
import { checkSpec, issueText } from "../../src/lab/spec_check";
import { experiment, ppo } from "./export_fixtures";

describe("issues of a run labelled as a settings table", () => {
  it("name the run in words, never as the table", () => {
    for (const label of ["experiment", "view", "Pipeline", "experiment.v2"]) {
      const issues: string[] = [];
      checkSpec({ runs: [{ id: "ppo-1", algo: "ppo", label, config: { beta: 99 } }] }, issues);
      const words = issues.map(issueText);
      // Before: "experiment.beta must be a number in [0, 10], got 99; …" raw in the notice.
      expect(words).toEqual([
        `run 1 “${label}”'s “β” must be a number in [0, 10], got 99; using the default 0.05`,
      ]);
      expect(issues.filter((i) => /^(experiment|view|Pipeline)\./.test(i))).toEqual([]);
    }
    // The tables' own issues still read as theirs; another label is the run's name as before.
    const issues: string[] = [];
    checkSpec(
      { seed: "x", runs: [{ id: "ppo-1", algo: "ppo", label: "experiments", config: { beta: 99 } }] },
      issues,
    );
    expect(issues.map(issueText)).toEqual([
      expect.stringMatching(/^“seed” must be an integer/),
      "experiments's “β” must be a number in [0, 10], got 99; using the default 0.05",
    ]);
  });

  it("a run file's run labelled experiment: its issue is a repair, not where it trained", () => {
    const file = JSON.parse(
      runFileJson(experiment, {
        spec: { ...ppo, label: "experiment" },
        status: "paused",
        step: 0,
        history: [],
        markers: [],
      }),
    );
    file.run.config.beta = 99;
    const r = parseRunFile(JSON.stringify(file));
    expect(r.ok && r.issues.filter((i) => i.startsWith("experiment."))).toEqual([]);
    expect(r.ok && r.issues.map(issueText)).toContain(
      'its "run" entry “experiment”\'s “β” must be a number in [0, 10], got 99; using the default 0.05',
    );
  });
});
