/**
 * The metrics and run exports (src/lab/export/metrics.ts, run_file.ts, config.ts): the metrics CSV and its column
 * names, the run JSON's round trip through import and what the import refuses or drops, and the config JSON.
 * The TRL script is in ./export_trl.test.ts.
 */
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { runConfig, runConfigJson } from "../../src/lab/export/config";
import { csvColumns, metricsCsv } from "../../src/lab/export/metrics";
import { importedSpec, MAX_MARKERS, parseRunFile, runFileJson } from "../../src/lab/export/run_file";
import type { MetricPoint } from "../../src/lab/protocol";
import { experiment, ppo } from "./export_fixtures";

const history: MetricPoint[] = [
  { step: 1, samples: 32, tokens: 400, metrics: { reward: 0.1, "objective/kl": 0, entropy: 2.5 } },
  {
    step: 2,
    samples: 64,
    tokens: 810,
    metrics: { reward: -0.25, "objective/kl": 0.0125, entropy: 2.4, "policy/clipfrac": 0.5 },
  },
  { step: 3, samples: 96, tokens: 1200, metrics: { reward: 1 / 3, entropy: 2.3 } },
];
const run = {
  spec: ppo,
  status: "paused" as const,
  step: 3,
  history,
  markers: [{ runId: "ppo-1", step: 2, label: "β 0.05 → 0.2" }],
};

describe("metrics export", () => {
  it("CSV has step, samples, tokens, then every TRL metric name, and re-reads to the same numbers", () => {
    expect(csvColumns(history)).toEqual([
      "step",
      "samples",
      "tokens",
      "reward",
      "objective/kl",
      "entropy",
      "policy/clipfrac",
    ]);
    const csv = metricsCsv(history);
    const parsed = Papa.parse<string[]>(csv.trim());
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toEqual(csvColumns(history));
    expect(parsed.data).toHaveLength(4);
    expect(parsed.data[3]).toEqual(["3", "96", "1200", String(1 / 3), "", "2.3", ""]);
    expect(Number(parsed.data[3][3])).toBe(1 / 3);
    expect(metricsCsv([])).toBe("step,samples,tokens\n");
    expect(csv.endsWith("1200,0.3333333333333333,,2.3,\n")).toBe(true);
  });

  it("run JSON round-trips through import; the import renames a taken id", () => {
    const text = runFileJson(experiment, run, new Date(0));
    const back = parseRunFile(text);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.issues).toEqual([]);
    expect(back.experiment).toEqual(experiment);
    expect(back.run).toEqual({ ...ppo, config: { beta: 0.2, lr: 3e-4 } });
    expect(back.history).toEqual(history);
    expect(back.markers).toEqual(run.markers);
    expect(back.step).toBe(3);
    const spec = importedSpec(back.run, [ppo]);
    expect(spec.id).toBe("ppo-2");
    expect(spec.label).toBe("PPO, β = 0.2 (imported)");
    expect(importedSpec(spec, [ppo]).label).toBe(spec.label);
    // Imported again beside the first import: a label of its own.
    expect(importedSpec(back.run, [ppo, spec]).label).toBe("PPO, β = 0.2 (imported 2)");
    expect(
      importedSpec(spec, [ppo, spec, { ...spec, id: "ppo-3", label: "PPO, β = 0.2 (imported 2)" }]).label,
    ).toBe("PPO, β = 0.2 (imported 3)");
    // A fork's file keeps its fork point (the run file is the run as it was); the import draws it whole, since
    // a run here with its source's id is another run.
    const fork = { ...ppo, id: "ppo-3", label: "PPO (fork @ 2)", forkOf: { id: "ppo-1", step: 2 } };
    const forkBack = parseRunFile(runFileJson(experiment, { ...run, spec: fork }, new Date(0)));
    expect(forkBack.ok && forkBack.run.forkOf).toEqual({ id: "ppo-1", step: 2 });
    if (forkBack.ok) expect(importedSpec(forkBack.run, [ppo]).forkOf).toBeUndefined();
  });

  it("import refuses what is not a run file and drops bad parts with issues", () => {
    expect(parseRunFile("{").ok).toBe(false);
    expect(parseRunFile("[]").ok).toBe(false);
    expect(parseRunFile(JSON.stringify({ format: "rlhf-playground.run", version: 2 })).ok).toBe(false);
    // A config export (settings only) is named as such, with the file to pick instead.
    const config = parseRunFile(runConfigJson(experiment, ppo));
    expect(!config.ok && config.error).toMatch(
      /^it is a run's config .*import the run's Run \(JSON\) export/,
    );
    const bad = JSON.parse(runFileJson(experiment, run));
    bad.run.algo = "sac";
    const r1 = parseRunFile(JSON.stringify(bad));
    expect(!r1.ok && r1.error).toMatch(/^its "run" entry: unknown algorithm "sac"/);
    // The run entry replaced by something else: the message says what is there and what was expected.
    const noRun = JSON.parse(runFileJson(experiment, run));
    noRun.run = "ppo";
    const r0 = parseRunFile(JSON.stringify(noRun));
    expect(!r0.ok && r0.error).toBe(
      'its "run" entry (the run\'s algorithm, label and settings) is a string, not an object',
    );
    delete noRun.run;
    const r00 = parseRunFile(JSON.stringify(noRun));
    expect(!r00.ok && r00.error).toMatch(/its "run" entry .* is missing, not an object/);
    const tampered = JSON.parse(runFileJson(experiment, run));
    tampered.run.config.beta = -1;
    tampered.experiment.seed = "x";
    tampered.history.push(
      { step: 4, samples: 1, tokens: 1, metrics: { reward: "NaN" } },
      { step: 2, samples: 0, tokens: 0, metrics: {} },
      null,
      // A step no run reaches: it would stretch every chart's x axis to 1e308.
      { step: 1e308, samples: 1e308, tokens: 1e308, metrics: { reward: 0 } },
      // A value no float32 run logs: it would squash every chart it is drawn on.
      { step: 5, samples: 40, tokens: 90, metrics: { reward: 1e300 } },
      { step: 6, samples: 48, tokens: 99, metrics: { reward: -1e39 } },
    );
    const r2 = parseRunFile(JSON.stringify(tampered));
    expect(r2.ok).toBe(true);
    if (!r2.ok) return;
    expect(r2.run.config).toEqual({ lr: 3e-4 });
    expect(r2.experiment.seed).toBe(0);
    expect(r2.knownExperiment).toBe(false);
    expect(r2.history).toEqual(history);
    const issues = r2.issues.join("\n");
    expect(issues).toMatch(/PPO, β = 0\.2\.beta must be/);
    expect(issues).toMatch(/experiment\.seed must be an integer/);
    expect(issues).toMatch(/6 malformed metric points dropped/);
    // One bad value in a point costs that value, not the point's other metrics; a history that is no list says so.
    const partly = JSON.parse(runFileJson(experiment, run));
    const last = partly.history.at(-1);
    partly.history.push({ ...last, step: last.step + 1, metrics: { ...last.metrics, entropy: "abc" } });
    partly.markers = [{ step: 1, label: "β 0.1 → 0.2" }, { step: -1 }, "x"];
    const r3 = parseRunFile(JSON.stringify(partly));
    const { entropy: _, ...kept } = last.metrics;
    expect(r3.ok && r3.history.at(-1)).toEqual({ ...last, step: last.step + 1, metrics: kept });
    expect(r3.ok && r3.issues).toEqual([
      "1 metric value dropped (not a finite number, or not under a metric's name)",
      "2 malformed setting-change markers dropped",
      `its "step" ${last.step} is not where its curves end: ${last.step + 1} used`,
    ]);
    const noList = JSON.parse(runFileJson(experiment, run));
    noList.history = "oops";
    const r4 = parseRunFile(JSON.stringify(noList));
    expect(r4.ok && r4.history).toEqual([]);
    expect(r4.ok && r4.issues).toEqual([
      'its "history" is a string, not a list of metric points: no curves',
      'its "step" 3 is not where its curves end: 0 used',
    ]);
    const clean = parseRunFile(runFileJson(experiment, run));
    expect(clean.ok && clean.knownExperiment).toBe(true);
    // Metric names a spreadsheet would run as formulas are no metric names: dropped, and the CSV escapes them.
    const formula = JSON.parse(runFileJson(experiment, run));
    formula.history[0].metrics = { ...formula.history[0].metrics, "=HYPERLINK(1)": 1, "+cmd": 2, "a b": 3 };
    const r6 = parseRunFile(JSON.stringify(formula));
    expect(r6.ok && Object.keys(r6.history[0].metrics).some((k) => /^[=+]| /.test(k))).toBe(false);
    expect(r6.ok && r6.issues).toEqual([
      "3 metric values dropped (not a finite number, or not under a metric's name)",
    ]);
    expect(metricsCsv([{ step: 1, samples: 1, tokens: 1, metrics: { "=1+1": -2 } }]).split("\n")[0]).toBe(
      `step,samples,tokens,"'=1+1"`,
    );
    // Papa's own formula pattern misses a cell with a line break; ours does not.
    expect(metricsCsv([{ step: 1, samples: 1, tokens: 1, metrics: { "=a\nb": 1 } }]).split("\n")[0]).toBe(
      `step,samples,tokens,"'=a`,
    );
    // A flood of markers (a forged file: a run makes one a step at most) is cut, repeats dropped.
    const flood = JSON.parse(runFileJson(experiment, run));
    flood.markers = [
      { step: 1, label: "a" },
      { step: 1, label: "a" },
      ...Array.from({ length: MAX_MARKERS + 5 }, (_, i) => ({ step: i + 2, label: "b" })),
    ];
    const r5 = parseRunFile(JSON.stringify(flood));
    expect(r5.ok && r5.markers.length).toBe(MAX_MARKERS);
    expect(r5.ok && r5.issues).toEqual([`6 setting-change markers beyond the first ${MAX_MARKERS} dropped`]);
    // The step is where the curves end: a checkpoint pairs with it and the run resumes after it. A file's "step"
    // that says otherwise once paired step-3 weights with curves cut to step 2, renumbered as step 2's.
    for (const [fileStep, shown] of [
      [99, "99"],
      ["abc", '"abc"'],
    ] as const) {
      const cut = JSON.parse(runFileJson(experiment, run));
      cut.step = fileStep;
      cut.history[2].metrics = "not metrics";
      const r7 = parseRunFile(JSON.stringify(cut));
      expect(r7.ok && r7.step).toBe(2);
      expect(r7.ok && r7.issues).toEqual([
        "1 malformed metric point dropped",
        `its "step" ${shown} is not where its curves end: 2 used`,
      ]);
    }
  });

  it("config JSON holds every setting (defaults too), the changed ones and TRL's names", () => {
    const c = runConfig(experiment, ppo);
    expect(c.algorithm).toBe("ppo");
    expect(c.task).toBe("sentiment");
    expect(c.seed).toBe(7);
    expect(c.settings.beta).toBe(0.2);
    expect(c.settings.gamma).toBe(1); // a default
    expect(c.changed.sort()).toEqual(["beta", "lr"]);
    // …each with the algorithm's default it differs from.
    expect(c.defaults).toEqual({ beta: 0.05, lr: 1e-4 });
    expect(c.trl?.config).toBe("PPOConfig");
    expect(c.trl?.args).toMatchObject({
      kl_coef: 0.2,
      learning_rate: 3e-4,
      response_length: 24,
      cliprange: 0.2,
    });
    expect(
      runConfig(experiment, { id: "bon-1", algo: "bon", label: "Best-of-n", config: {} }).trl,
    ).toBeNull();
    // After the Pipeline's hand-off the file names the model the run started from, not only the preset.
    expect(c.startModel).toBeUndefined();
    const handed = "Pipeline's SFT model (nano, 250 steps)";
    expect(runConfig(experiment, ppo, handed).startModel).toBe(handed);
  });
});

describe("CSV column names", () => {
  it("never repeats a column: per-step samples/tokens metrics get a _step suffix", async () => {
    const { metricsCsv } = await import("../../src/lab/export/metrics");
    const csv = metricsCsv([
      { step: 1, samples: 8, tokens: 40, metrics: { reward: 0.5, samples: 8, tokens: 40 } },
    ]);
    const header = csv.split("\n")[0].split(",");
    expect(header).toEqual(["step", "samples", "tokens", "reward", "samples_step", "tokens_step"]);
    expect(new Set(header).size).toBe(header.length);
  });
});
