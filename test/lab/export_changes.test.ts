/**
 * A knob changed mid-run in the exports (src/lab/export/changes.ts): the metrics CSV's `settings_changed` column,
 * config.json's `changes`, the TRL script's opening comment, the Share note, and run files that keep the
 * structured changes (and older ones, with labels only, that still read).
 */
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { runConfig } from "../../src/lab/export/config";
import { metricsCsv } from "../../src/lab/export/metrics";
import { parseRunFile, runFileJson } from "../../src/lab/export/run_file";
import { trlScript } from "../../src/lab/export/trl_script";
import type { Marker, MetricPoint } from "../../src/lab/protocol";
import { SHARE_NOTE, shareNote } from "../../src/ui/lab/share_note";
import { experiment, ppo } from "./export_fixtures";

const point = (step: number): MetricPoint => ({
  step,
  samples: 8 * step,
  tokens: 80 * step,
  metrics: { reward: step },
});
const history = [point(1), point(2), point(3)];
/** β 0.2 → 0.5 from step 2, as the scheduler marks it (src/lab/run_slot.ts recordStep). */
const beta: Marker = {
  runId: "ppo-1",
  step: 2,
  label: "β 0.2 → 0.5",
  changes: [{ key: "beta", from: 0.2, to: 0.5, label: "β 0.2 → 0.5" }],
};
const spec = { ...ppo, label: "PPO β = 0.2", config: { ...ppo.config, beta: 0.5 } };

describe("a mid-run change in the exports", () => {
  it("the CSV's last column settings_changed holds the marker label on the step it applied, escaped", () => {
    const rows = Papa.parse<string[]>(metricsCsv(history, [beta]).trim()).data;
    expect(rows[0]).toEqual(["step", "samples", "tokens", "reward", "settings_changed"]);
    expect(rows.slice(1).map((r) => r[4])).toEqual(["", "β 0.2 → 0.5", ""]);
    // Two changes in one label hold a comma: quoted. A resume marker is not a setting change.
    const two: Marker = { runId: "ppo-1", step: 3, label: "β 0.5 → 0.1, lr 1e-4 → 3e-5" };
    const lost: Marker = { runId: "ppo-1", step: 1, label: "GPU lost: resumed from step 0" };
    const csv = metricsCsv(history, [lost, two]);
    expect(csv.split("\n")[3]).toBe('3,24,240,3,"β 0.5 → 0.1, lr 1e-4 → 3e-5"');
    expect(csv.split("\n")[1]).toBe("1,8,80,1,");
    // No markers: the column is there, empty.
    expect(metricsCsv(history, []).split("\n")[0]).toBe("step,samples,tokens,reward,settings_changed");
  });

  it("config.json lists the changes with step, key, from, to and label; an old marker keeps its label", () => {
    const c = runConfig(experiment, spec, null, undefined, [beta]);
    expect(c.settings.beta).toBe(0.5);
    expect(c.changes).toEqual([{ step: 2, key: "beta", from: 0.2, to: 0.5, label: "β 0.2 → 0.5" }]);
    const old: Marker = { runId: "ppo-1", step: 2, label: "β 0.2 → 0.5" };
    expect(runConfig(experiment, spec, null, undefined, [old]).changes).toEqual([
      { step: 2, label: "β 0.2 → 0.5" },
    ]);
    expect(runConfig(experiment, spec).changes).toEqual([]);
  });

  it("the TRL script says at its top that it uses the final values and names the changes", () => {
    const script = trlScript(experiment, { spec, step: 3, markers: [beta] }, new Date(0));
    const top = script.split('"""')[0];
    expect(top).toContain("# NOTE: this run's settings changed mid-run in the lab: β 0.2 → 0.5 at step 2.");
    expect(top).toContain("uses the final values");
    expect(trlScript(experiment, { spec, step: 3, markers: [] }, new Date(0)).split('"""')[0]).toBe(
      "#!/usr/bin/env python3\n",
    );
  });

  it("the Share note says the link opens the current settings and names the changes it does not replay", () => {
    expect(
      shareNote([
        { label: "PPO β = 0.2", markers: [beta] },
        { label: "DPO", markers: [] },
      ]),
    ).toBe(
      `This link opens the current settings; the mid-run changes (PPO β = 0.2: β 0.2 → 0.5 at step 2) are not replayed. ${SHARE_NOTE}`,
    );
    expect(shareNote([{ label: "DPO", markers: [] }])).toBe(SHARE_NOTE);
  });

  it("a run file keeps the structured changes; an older file's label-only markers still read", () => {
    const run = { spec, status: "paused" as const, step: 3, history, markers: [beta] };
    const back = parseRunFile(runFileJson(experiment, run, new Date(0)));
    expect(back.ok && back.markers).toEqual([beta]);
    const old = JSON.parse(runFileJson(experiment, run, new Date(0)));
    old.markers = [{ runId: "ppo-1", step: 2, label: "β 0.2 → 0.5" }];
    const read = parseRunFile(JSON.stringify(old));
    expect(read.ok && read.markers).toEqual([{ runId: "ppo-1", step: 2, label: "β 0.2 → 0.5" }]);
    expect(read.ok && read.issues).toEqual([]);
  });
});
