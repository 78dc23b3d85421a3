/**
 * The saved experiment as the lab opens it without a link (src/ui/lab/session_lines.ts savedExperiment): its runs
 * imported for comparison left to the page, fork points dropped, bad settings reset and said, and a default
 * changed since it was saved said (src/lab/default_changes.ts).
 */
import { describe, expect, it } from "vitest";
import { SETTINGS_REVISION } from "../../src/lab/default_changes";
import type { SavedSession } from "../../src/lab/persist";
import type { ExperimentSpec, RunSpec } from "../../src/lab/protocol";
import { matchesLink, savedExperiment } from "../../src/ui/lab/session_lines";

const run = (spec: RunSpec, comparison = false) => ({
  spec,
  status: "paused" as const,
  step: 3,
  history: [],
  markers: [],
  checkpoint: null,
  ...(comparison && { comparison: true as const }),
});

function session(revision?: number): SavedSession {
  const grpo: RunSpec = { id: "grpo-1", algo: "grpo", label: "GRPO", config: { epsilon: 0.1 } };
  const fork: RunSpec = {
    id: "f",
    algo: "ppo",
    label: "PPO (fork @ 2)",
    config: {},
    forkOf: { id: "p", step: 2 },
  };
  const curve: RunSpec = { id: "c", algo: "dpo", label: "DPO (imported)", config: {} };
  return {
    spec: { task: "arithmetic", model: "nano", seed: 0, runs: [grpo, fork, curve] },
    runs: [run(grpo), run(fork), run(curve, true)],
    ...(revision && { revision }),
  };
}

describe("the saved experiment, opened without a link", () => {
  it("leaves out the comparison runs and fork points; says where a default changed since it may matter", () => {
    const old = savedExperiment(session());
    expect(old.spec.runs.map((r) => r.id)).toEqual(["grpo-1", "f"]);
    expect(old.spec.runs[1].forkOf).toBeUndefined();
    expect(old.line).toMatch(
      /^The experiment saved in this browser does not say which version of the lab made it\. If it was made before 3 Dec 2026, when ε_high's default was 0\.2 \(now 0, which follows ε\): GRPO now clips the ratio above at 1 \+ ε = 1\.1, not 1\.2/,
    );
    expect(savedExperiment(session(SETTINGS_REVISION)).line).toBeNull();
  });

  it("resets a bad setting and says so, beside the default's note", () => {
    const s = session();
    s.spec.runs[0] = { ...s.spec.runs[0], config: { epsilon: 0.1, lr: -1 } };
    const read = savedExperiment(s);
    expect(read.spec.runs[0].config).toEqual({ epsilon: 0.1 });
    expect(read.line).toMatch(/lr.*The experiment saved in this browser does not say/s);
  });

  it("says a value set the old way, which the check drops (ε_high = 0 meant no rise above 1)", () => {
    const s = session();
    s.spec.runs[0] = { ...s.spec.runs[0], config: { epsilon: 0.1, epsilonHigh: 0 } };
    const read = savedExperiment(s);
    expect(read.spec.runs[0].config).toEqual({ epsilon: 0.1 });
    expect(read.line).toContain(
      "when ε_high = 0 kept the ratio from rising above 1 (now 0 follows ε): GRPO now clips the ratio above at 1 + ε = 1.1, not 1;",
    );
  });

  it("names a run in the default's note as the check renames it, from settings the check keeps (no NaN)", () => {
    const s = session();
    s.spec.runs[0] = { ...s.spec.runs[0], label: `\u202Eevil${"x".repeat(300)}`, config: { epsilon: "abc" } };
    s.spec.runs[1] = {
      ...s.spec.runs[1],
      algo: "safe_rlhf",
      label: "Safe",
      config: { epsilon: "0.1", epsilonHigh: 0 },
    };
    const read = savedExperiment(s);
    expect(read.line).toContain('run 1: its name was invalid; named "GRPO"');
    // Before: "‮evilxxx… now clips the ratio above at 1 + ε = NaN" (the raw label, the raw ε), beside the issues.
    expect(read.line).not.toMatch(/NaN|\u202E|xxx/);
    expect(read.line).toContain("Safe now clips the ratio above at 1 + ε = 1.2, not 1;");
    expect(read.line).not.toMatch(/GRPO now clips/); // ε back at its default 0.2: nothing differs
  });
});

describe("a kept experiment matched to a link", () => {
  it("reads its runs as written: an entry that is no run neither matches nor crashes the page", () => {
    const link = session().spec;
    const kept = { ...link, runs: [null, { id: "grpo-1", algo: "grpo", config: null }, ...link.runs] };
    // Before: "Cannot read properties of null (reading 'id')", then of the null config.
    expect(matchesLink(kept as unknown as ExperimentSpec, link)).toBe(true);
    expect(matchesLink({ ...link, runs: [null] } as unknown as ExperimentSpec, link)).toBe(false);
  });
});
