/**
 * The lesson check in pieces (cli/lab/lesson.ts): a run's log read back (--reuse) is checked like a trained run,
 * and a seed whose check needs a missing run is partial — never a pass. Logs are written here: nothing trains.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { trainingCodeHash } from "../../cli/lab/code_hash";
import { readRunLog, runIdentity, runLessonSeed } from "../../cli/lab/lesson";
import type { PresetId } from "../../src/lab/presets/ids";
import { LESSONS } from "../../src/lab/presets/index";
import { testGpu } from "../helpers/gpu";

/** Write `rows` as the lesson CLI does: one {step, run, algo, ...metrics} line per step. */
function writeLog(path: string, run: string, rows: Record<string, number>[]) {
  mkdirSync(join(path, ".."), { recursive: true });
  const lines = rows.map((m, i) => JSON.stringify({ step: i + 1, run, algo: "bon", ...m }));
  writeFileSync(path, `${lines.join("\n")}\n`);
}

/** Write a lesson run's log and, next to it, the identity the CLI checks before reusing it (seed 0). */
function writeLessonLog(out: string, lesson: PresetId, run: string, rows: Record<string, number>[]) {
  const spec = LESSONS[lesson].experiment(0);
  const r = spec.runs.find((x) => x.id === run);
  if (!r) throw new Error(run);
  const path = join(out, lesson, "seed0", `${run}.jsonl`);
  writeLog(path, run, rows);
  writeFileSync(
    path.replace(/\.jsonl$/, ".spec.json"),
    `${runIdentity(lesson, spec, r, trainingCodeHash())}\n`,
  );
  return path;
}

describe("lesson logs", () => {
  it("reads the first `steps` lines in step order, metrics only; null when short or out of order", () => {
    const dir = mkdtempSync(join(tmpdir(), "lesson-log-"));
    const path = join(dir, "a.jsonl");
    writeLog(path, "a", [{ reward: 0.1 }, { reward: 0.2 }, { reward: 0.3 }]);
    expect(readRunLog(path, 2)).toEqual([{ reward: 0.1 }, { reward: 0.2 }]);
    expect(readRunLog(path, 4)).toBeNull();
    expect(readRunLog(join(dir, "missing.jsonl"), 1)).toBeNull();
    writeFileSync(
      path,
      `${JSON.stringify({ step: 2, reward: 1 })}\n${JSON.stringify({ step: 1, reward: 1 })}\n`,
    );
    expect(readRunLog(path, 2)).toBeNull();
    // A run killed mid-write leaves half a line.
    writeFileSync(path, `${JSON.stringify({ step: 1, reward: 1 })}\n{"step":2,"rew`);
    expect(readRunLog(path, 2)).toBeNull();
    rmSync(dir, { recursive: true });
  });

  it("checks reused logs like trained runs; a missing run makes the seed partial", async () => {
    const ctx = await testGpu();
    const out = mkdtempSync(join(tmpdir(), "lesson-reuse-"));
    const log = (run: string, rows: Record<string, number>[]) => writeLessonLog(out, "bon-vs-rl", run, rows);
    // Best-of-n vs RL over 2 steps: reward grows with n, KL within log n − (n−1)/n.
    const bon = (reward: number, kl: number, bound: number) =>
      [0, 1].map((i) => ({ reward: reward + 0.01 * i, "objective/kl": kl, "objective/kl_bound": bound }));
    log("bon-2", bon(0.4, 0.1, 0.193));
    log("bon-4", bon(0.6, 0.5, 0.636));
    log("bon-16", bon(0.9, 1.2, 1.835));
    const grpo = log("grpo", bon(0.3, 0.7, Number.NaN));
    const opts = { seeds: [0], steps: 2, out, reuse: true, runs: [] };

    const v = await runLessonSeed(ctx, "bon-vs-rl", 0, opts);
    expect(v.reused).toEqual(["bon-2", "bon-4", "bon-16", "grpo"]);
    expect(v.missing).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.numbers.reward_bon16).toBeCloseTo(0.905, 10);
    expect(v.numbers.kl_grpo_end).toBeCloseTo(0.7, 10);

    // The check reads the logs: best-of-16 below best-of-4 fails it.
    const bon16 = log("bon-16", bon(0.5, 1.2, 1.835));
    expect((await runLessonSeed(ctx, "bon-vs-rl", 0, opts)).ok).toBe(false);

    // A log made with other settings (the lesson retuned since) is not reused.
    const idPath = bon16.replace(/\.jsonl$/, ".spec.json");
    expect(readFileSync(idPath, "utf8")).toContain('"n":16');
    writeFileSync(idPath, readFileSync(idPath, "utf8").replace('"n":16', '"n":8'));
    expect(await runLessonSeed(ctx, "bon-vs-rl", 0, opts)).toMatchObject({
      partial: true,
      missing: ["bon-16"],
    });

    // A log of another version of the lab (another training code fingerprint) is not reused either: a reviewer
    // had one of three days before judged as today's.
    log("bon-16", bon(0.9, 1.2, 1.835));
    writeFileSync(
      idPath,
      readFileSync(idPath, "utf8").replace(/"code":"[0-9a-f]+"/, '"code":"0123456789abcdef"'),
    );
    expect(await runLessonSeed(ctx, "bon-vs-rl", 0, opts)).toMatchObject({
      partial: true,
      missing: ["bon-16"],
    });
    // … except to check from the logs alone (--train no), which says so: the shipped logs (docs/lesson-runs)
    // predate the fingerprint, and their identity files have none.
    const checkOnly = { ...opts, train: false };
    expect(await runLessonSeed(ctx, "bon-vs-rl", 0, checkOnly)).toMatchObject({
      ok: true,
      otherCode: ["bon-16"],
      missing: [],
    });
    writeFileSync(idPath, readFileSync(idPath, "utf8").replace(/,"code":"[0-9a-f]+"/, ""));
    expect(readFileSync(idPath, "utf8")).not.toContain('"code"');
    expect(await runLessonSeed(ctx, "bon-vs-rl", 0, checkOnly)).toMatchObject({
      ok: true,
      otherCode: ["bon-16"],
    });
    expect(await runLessonSeed(ctx, "bon-vs-rl", 0, opts)).toMatchObject({
      partial: true,
      missing: ["bon-16"],
    });
    // Other settings are never read, even to check.
    writeFileSync(idPath, readFileSync(idPath, "utf8").replace('"n":16', '"n":8'));
    expect(await runLessonSeed(ctx, "bon-vs-rl", 0, checkOnly)).toMatchObject({
      partial: true,
      missing: ["bon-16"],
    });

    // Without the GRPO run (and told to train none) the seed is not checked.
    log("bon-16", bon(0.9, 1.2, 1.835));
    rmSync(grpo);
    const partial = await runLessonSeed(ctx, "bon-vs-rl", 0, opts);
    expect(partial).toMatchObject({ ok: false, partial: true, missing: ["grpo"], numbers: {} });
    expect(partial.summary).toContain("needs run grpo");
    // --train no (train: false) trains nothing either, whatever --runs names.
    const noTrain = { seeds: [0], steps: 2, out, reuse: true, train: false, runs: ["grpo"] };
    expect(await runLessonSeed(ctx, "bon-vs-rl", 0, noTrain)).toMatchObject({
      partial: true,
      missing: ["grpo"],
    });

    // A run the check can do without may be missing: the KL-estimator lesson pools whichever runs it has.
    writeLessonLog(
      out,
      "kl-estimators",
      "ppo-1",
      [0.02, -0.01, 0.03, 0.01].map((k1) => ({
        "objective/kl": k1,
        "objective/kl_k3": 0.01,
        "objective/kl_exact": 0.015,
      })),
    );
    const d = await runLessonSeed(ctx, "kl-estimators", 0, { ...opts, steps: 4 });
    expect(d).toMatchObject({ ok: true, partial: false, missing: ["grpo-1"], reused: ["ppo-1"] });
    expect(d.numbers).toMatchObject({ k1_negative_batches: 1, batches: 4, k1_min: -0.01 });
    // With neither run it is not checked (it read as a failure on 0 batches).
    rmSync(join(out, "kl-estimators"), { recursive: true });
    const none = { ...opts, steps: 4, train: false };
    expect(await runLessonSeed(ctx, "kl-estimators", 0, none)).toMatchObject({
      ok: false,
      partial: true,
      missing: ["ppo-1", "grpo-1"],
    });

    // DPO's lesson reads both runs: without the flipped-label run it is partial.
    writeLessonLog(out, "dpo-implicit-reward", "dpo-offline", [
      ...[0, 1, 2, 3, 4].map(() => ({
        "rewards/margins": 0.0,
        "rewards/accuracies": 0.3,
        "logps/chosen": -2,
        reward: 0.4,
      })),
      ...[0, 1, 2, 3, 4].map(() => ({
        "rewards/margins": 0.4,
        "rewards/accuracies": 0.8,
        "logps/chosen": -3,
        reward: 0.3,
      })),
    ]);
    const dpoOpts = { ...opts, steps: 10 };
    expect(await runLessonSeed(ctx, "dpo-implicit-reward", 0, dpoOpts)).toMatchObject({
      ok: false,
      partial: true,
      missing: ["dpo-flipped"],
    });
    writeLessonLog(
      out,
      "dpo-implicit-reward",
      "dpo-flipped",
      Array.from({ length: 10 }, () => ({ "rewards/margins": 0.01, "rewards/accuracies": 0.5 })),
    );
    const dpo = await runLessonSeed(ctx, "dpo-implicit-reward", 0, dpoOpts);
    expect(dpo).toMatchObject({ ok: true, partial: false, missing: [] });
    // Last 10 of 10 steps against the first 5.
    expect(dpo.numbers).toEqual({
      margin_gain: 0.2,
      accuracy_end: 0.55,
      logps_chosen_change: -0.5,
      reward_change: -0.05,
      margin_end: 0.2,
      margin_end_flipped: 0.01,
      accuracy_end_flipped: 0.5,
    });

    await expect(runLessonSeed(ctx, "bon-vs-rl", 0, { ...opts, runs: ["nope"] })).rejects.toThrow(
      /has no run nope/,
    );
    rmSync(out, { recursive: true });
  }, 120_000);
});
