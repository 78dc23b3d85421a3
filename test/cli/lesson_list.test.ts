/**
 * `lab lesson <id|all> --list-runs`: each lesson's run ids from its own code (scripts/device-evidence.sh builds its
 * table of runs from it, so a new lesson is trained there without an edit), and `lab lesson --help`'s status lines.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PRESET_IDS } from "../../src/lab/presets/ids";
import { LESSONS } from "../../src/lab/presets/index";
import { lessonStatusText } from "../../src/lab/presets/lesson";

const LAB = ["--import", "tsx", "--import", "./cli/raw-loader.mjs", "cli/lab.ts"];
const lab = (...args: string[]) =>
  spawnSync("node", [...LAB, ...args], { encoding: "utf8", timeout: 60_000 });

describe("lab lesson --list-runs", () => {
  it("prints every lesson's id and its run ids, one line each, and trains nothing", () => {
    const r = lab("lesson", "all", "--list-runs");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toEqual(
      PRESET_IDS.map(
        (id) =>
          `${id} ${LESSONS[id]
            .experiment(0)
            .runs.map((x) => x.id)
            .join(",")}`,
      ),
    );
    expect(r.stdout).toContain("length-bias grpo,dr-grpo\n");
    const one = lab("lesson", "grpo-groups", "--list-runs");
    expect(one.stdout).toBe("grpo-groups grpo-g2,grpo-g8\n");
    expect(lab("lesson", "ninth", "--list-runs").stderr).toMatch(/unknown lesson "ninth"/);
  }, 120_000);

  it("--help gives each lesson's status on the shipped models after its title", () => {
    const r = lab("lesson", "--help");
    expect(r.status).toBe(0);
    for (const id of PRESET_IDS)
      expect(r.stdout).toContain(
        `  ${id}: ${LESSONS[id].title}\n      ${lessonStatusText(LESSONS[id].status)}`,
      );
    expect(r.stdout).toContain("Heads-up: on this lab's small models the effect below did not show");
  }, 120_000);
});
