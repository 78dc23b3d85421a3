import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { readRunLog } from "../../cli/lab/lesson";
import { RunLogLines } from "../../cli/lab/run_log";
import { recordMetrics } from "../../src/lab/export/columns";
import { metricsCsv } from "../../src/lab/export/metrics";

// A reviewer's PPO run, 4 steps of 2 completions (4 tokens each): at step 4 the CLI log said samples 2 (the
// step's own), the page's CSV of the same run 8 (the running total), with the step's 2 under samples_step.
const STEP = { samples: 2, tokens: 8, reward: 0.5, "objective/kl": 0.01 };

describe("the headless lab's log lines", () => {
  it("write samples and tokens as running totals and the step's own as samples_step, as the page's CSV", () => {
    const lines = new RunLogLines({ algo: "ppo" });
    const written = [1, 2, 3, 4].map((s) => lines.line(s, { ...STEP }));
    expect(written[3]).toEqual({
      step: 4,
      algo: "ppo",
      samples: 8,
      tokens: 32,
      reward: 0.5,
      "objective/kl": 0.01,
      samples_step: 2,
      tokens_step: 8,
    });
    // The page's CSV of the same history (its points carry the running totals the page counts).
    const history = [1, 2, 3, 4].map((s) => ({
      step: s,
      samples: 2 * s,
      tokens: 8 * s,
      metrics: { ...STEP },
    }));
    const csv = Papa.parse<Record<string, number>>(metricsCsv(history), {
      header: true,
      dynamicTyping: true,
    });
    const { algo: _, ...row } = written[3];
    expect(csv.data[3]).toEqual(row);
  });

  it("read back (lab lesson --reuse) as the step's own metrics, new logs and old alike", () => {
    const line = new RunLogLines({ run: "a", algo: "grpo" });
    line.line(1, { ...STEP });
    expect(recordMetrics(line.line(2, { ...STEP }))).toEqual(STEP);
    // A log written before the totals: its samples and tokens were the step's own.
    expect(recordMetrics({ step: 2, run: "a", algo: "grpo", ...STEP })).toEqual(STEP);
    const dir = mkdtempSync(join(tmpdir(), "run-log-"));
    const path = join(dir, "a.jsonl");
    const lines = new RunLogLines({ run: "a", algo: "grpo" });
    writeFileSync(path, [1, 2].map((s) => `${JSON.stringify(lines.line(s, { ...STEP }))}\n`).join(""));
    expect(readRunLog(path, 2)).toEqual([STEP, STEP]);
    rmSync(dir, { recursive: true });
  });
});
