/**
 * Numbers a lesson's text states from the logs under docs/lesson-runs, read back from those logs, with the seeds
 * they hold for. The over-optimisation lesson once said "A smaller penalty is not enough here … by step 60 it had
 * drifted as far as β = 0" from one seed-0 probe, while β = 0's own last-10 KL ranges over 3.4–5.9 on seeds 0–2.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LESSONS } from "../../src/lab/presets/index";

const DIR = "docs/lesson-runs/overoptimisation";
const KL = "objective/kl_exact";
const log = (path: string): Record<string, number>[] =>
  readFileSync(`${DIR}/${path}`, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const lastKl = (rows: Record<string, number>[]) => mean(rows.slice(-10).map((r) => r[KL]));
/** The lowest and highest 5-step mean of the exact KL over steps 16–45. */
const middle = (rows: Record<string, number>[]) => {
  const means = [15, 20, 25, 30, 35, 40].map((i) => mean(rows.slice(i, i + 5).map((r) => r[KL])));
  return `${Math.min(...means).toFixed(1)}–${Math.max(...means).toFixed(1)}`;
};

describe("lesson claims against their logs", () => {
  it("over-optimisation: the β = 0.05 probe is stated for seed 0, with the seeds' spread of β = 0", () => {
    const text = LESSONS.overoptimisation.watch.join(" ");
    const probe = log("probes-2026-12-02/seed0_ppo_beta0.05_60steps.jsonl");
    const free = [0, 1, 2].map((s) => log(`seed${s}/ppo-b0.jsonl`));
    expect(text).toContain("(on seed 0)");
    expect(text).not.toContain("A smaller penalty is not enough here");
    expect(text).toContain(`${middle(probe)} nats over steps 16–45, against β = 0's ${middle(free[0])}`);
    expect(text).toContain(`(${lastKl(probe).toFixed(2)} against ${lastKl(free[0]).toFixed(2)} nats)`);
    const spread = free.map(lastKl);
    expect(text).toContain(
      `β = 0's own last-10 KL spans ${Math.min(...spread).toFixed(1)}–${Math.max(...spread).toFixed(1)} nats over seeds 0–2`,
    );
  });
});
