import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PRESET_IDS } from "../../src/lab/presets/ids";
import { ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";
import { loadCheckpoint } from "../../src/model/checkpoint";

const LAB = ["--import", "tsx", "--import", "./cli/raw-loader.mjs", "cli/lab.ts"];

describe("headless lab CLI", () => {
  it("says when a setting given has no effect with the others (the run card greys it out)", () => {
    // A reviewer's DPO with a hinge loss and label smoothing 0.49: accepted without a word, and no effect.
    const args = ["train", "--task", "arithmetic", "--algo", "dpo", "--model", "nano", "--steps", "1"];
    const sets = ["lossType=hinge", "labelSmoothing=0.2", "batchPairs=2"].flatMap((kv) => ["--set", kv]);
    const out = String(execFileSync("node", [...LAB, ...args, ...sets], { stdio: "pipe", timeout: 120_000 }));
    expect(out).toContain("dpo: labelSmoothing has no effect with lossType hinge (used with sigmoid)");
  }, 150_000);

  it("stopped by Ctrl-C: the log's last line says so (exit 130), not a finished shorter run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lab-"));
    const out = join(dir, "run.jsonl");
    const args = [
      "train",
      "--task",
      "arithmetic",
      "--algo",
      "reinforce",
      "--model",
      "nano",
      "--steps",
      "500",
    ];
    const child = spawn("node", [
      ...LAB,
      ...args,
      "--set",
      "batchPrompts=2",
      "--set",
      "maxNewTokens=2",
      "--out",
      out,
    ]);
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    // A first step logged: the handler is in (the suite's GPU tests beside it can make that take minutes).
    const stepped = () => existsSync(out) && readFileSync(out, "utf8").split("\n").length > 1;
    for (let t = 0; t < 1400 && !stepped(); t++) await new Promise((r) => setTimeout(r, 200));
    if (!stepped()) child.kill("SIGKILL");
    expect(stepped(), "no step logged in 280 s").toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const last = lines[lines.length - 1];
    expect(last).toEqual({ interrupted: "SIGINT", step: lines.length - 1, steps: 500 });
    expect(lines.slice(0, -1).map((l) => l.step)).toEqual(lines.slice(0, -1).map((_, i) => i + 1));
  }, 300_000);

  it("trains and writes one JSON object per step with TRL metric names", () => {
    const dir = mkdtempSync(join(tmpdir(), "lab-"));
    const out = join(dir, "run.jsonl");
    const save = join(dir, "model.safetensors");
    execFileSync(
      "node",
      [
        ...LAB,
        "train",
        "--task",
        "arithmetic",
        "--algo",
        "rloo",
        "--model",
        "nano",
        "--steps",
        "2",
        "--seed",
        "3",
        "--set",
        "batchPrompts=2",
        "--set",
        "maxNewTokens=4",
        "--out",
        out,
        "--save",
        save,
      ],
      {
        stdio: "pipe",
        timeout: 120_000,
      },
    );
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.step)).toEqual([1, 2]);
    for (const l of lines) {
      expect(l.algo).toBe("rloo");
      for (const k of [
        "reward",
        "reward_gold",
        "objective/kl",
        "entropy",
        "completions/mean_length",
        "grad_norm",
        "learning_rate",
        "tokens/s",
      ])
        expect(Number.isFinite(l[k]), k).toBe(true);
    }
    // As the page's CSV: samples and tokens count up, the step's own are samples_step and tokens_step (the log
    // once wrote the step's own under samples: 8 at step 2 where the CSV said 16).
    expect(lines[0].samples_step).toBe(8); // 2 prompts × RLOO's 4 completions
    expect([lines[0].samples, lines[1].samples]).toEqual([8, 16]);
    expect(lines[1].tokens).toBe(lines[0].tokens_step + lines[1].tokens_step);
    // The page's export format: its Import reads the algorithm, the steps and the settings from it.
    const ck = loadCheckpoint(readFileSync(save));
    expect(ck.info).toMatchObject({ algo: "rloo", steps: "2", seed: "3", task: "arithmetic" });
    expect(JSON.parse(ck.info.settings)).toMatchObject({ batchPrompts: 2, maxNewTokens: 4 });
  });

  it("sweeps seeds × a grid of settings: a log and spec per run, then mean ± sd across seeds", () => {
    const dir = mkdtempSync(join(tmpdir(), "lab-sweep-"));
    const args = ["train", "--task", "arithmetic", "--algo", "grpo", "--model", "nano", "--steps", "2"];
    const sets = ["beta=0.05,1", "batchPrompts=2", "numGenerations=2", "maxNewTokens=4"];
    const summary = join(dir, "summary.json");
    const out = String(
      execFileSync(
        "node",
        [
          ...LAB,
          ...args,
          "--seeds",
          "0-1",
          ...sets.flatMap((kv) => ["--set", kv]),
          "--out",
          dir,
          "--summary",
          summary,
        ],
        { stdio: "pipe", timeout: 240_000 },
      ),
    );
    for (const beta of ["0.05", "1"])
      for (const seed of [0, 1]) {
        const log = join(dir, `beta=${beta}`, `seed${seed}.jsonl`);
        const lines = readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l));
        expect(
          lines.map((l) => [l.step, l.kl_coef]),
          log,
        ).toEqual([
          [1, Number(beta)],
          [2, Number(beta)],
        ]);
        expect(lines[1].samples).toBe(8); // running total: 2 steps × 2 prompts × G 2
        const spec = JSON.parse(readFileSync(log.replace(/\.jsonl$/, ".spec.json"), "utf8"));
        expect(spec).toMatchObject({ task: "arithmetic", model: "nano", seed, algo: "grpo", steps: 2 });
        expect(spec.settings).toEqual({
          beta: Number(beta),
          batchPrompts: 2,
          numGenerations: 2,
          maxNewTokens: 4,
        });
        expect(spec.lab.version).toMatch(/^\d+\.\d+\.\d+$/);
        expect(spec.code).toMatch(/^[0-9a-f]{16}$/);
      }
    expect(out).toMatch(/^beta=0\.05 seed 1: step 2 reward /m);
    expect(out).toContain("mean ± sd across seeds of each run's mean over its last 2 steps");
    expect(out).toMatch(/^settings +n +reward +reward_gold +objective\/kl +objective\/kl_exact +entropy$/m);
    expect(out).toMatch(/^beta=0\.05 +2 +-?\d\.\d{3} ± \d\.\d{3} /m);
    expect(out).toMatch(/^beta=1 +2 +-?\d\.\d{3} ± \d\.\d{3} /m);
    const lines = JSON.parse(readFileSync(summary, "utf8"));
    expect(lines.map((l: { name: string; seeds: number[] }) => [l.name, l.seeds])).toEqual([
      ["beta=0.05", [0, 1]],
      ["beta=1", [0, 1]],
    ]);
    // The table's numbers are the logs': β 1's reward over both seeds' last 2 steps.
    const means = [0, 1].map((seed) => {
      const rows = readFileSync(join(dir, "beta=1", `seed${seed}.jsonl`), "utf8")
        .trim()
        .split("\n");
      return rows.map((l) => JSON.parse(l).reward).reduce((a: number, b: number) => a + b, 0) / 2;
    });
    expect(lines[1].metrics.reward.mean).toBeCloseTo((means[0] + means[1]) / 2, 12);
  }, 300_000);

  it("a sweep stopped by Ctrl-C ends the step in progress and prints the summary of the runs that finished", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lab-sweep-"));
    const args = [
      "train",
      "--task",
      "arithmetic",
      "--algo",
      "reinforce",
      "--model",
      "nano",
      "--steps",
      "100",
    ];
    const child = spawn("node", [
      ...LAB,
      ...args,
      "--seeds",
      "0,1",
      "--set",
      "batchPrompts=2",
      "--set",
      "maxNewTokens=2",
      "--last",
      "3",
      "--out",
      dir,
    ]);
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += String(d);
    });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    // The second run's first step logged: the first run finished all its steps.
    const second = join(dir, "seed1.jsonl");
    const stepped = () => existsSync(second) && readFileSync(second, "utf8").split("\n").length > 1;
    for (let t = 0; t < 2800 && !stepped(); t++) await new Promise((r) => setTimeout(r, 200));
    if (!stepped()) child.kill("SIGKILL");
    expect(stepped(), "the second run logged no step in 560 s").toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const last = readFileSync(second, "utf8").trim().split("\n").at(-1) ?? "";
    expect(JSON.parse(last)).toMatchObject({ interrupted: "SIGINT", steps: 100 });
    expect(stdout).toContain("mean ± sd across seeds of each run's mean over its last 3 steps");
    expect(stdout).toMatch(/^\(as given\) +1 +-?\d\.\d{3} ± – /m);
    expect(stdout).toContain("(1 of 2 runs finished)");
  }, 600_000);

  it("a loss set without its β brings its own, as the run card does: SimPO trains at β = 2, not DPO's 0.1", () => {
    const dir = mkdtempSync(join(tmpdir(), "lab-"));
    const out = join(dir, "run.jsonl");
    const simpo = ["train", "--task", "arithmetic", "--algo", "dpo", "--model", "nano", "--steps", "1"];
    const small = ["--set", "lossType=simpo", "--set", "batchPairs=2", "--set", "maxNewTokens=4"];
    const betaOf = (extra: string[]) => {
      execFileSync("node", [...LAB, ...simpo, ...small, ...extra, "--out", out], {
        stdio: "pipe",
        timeout: 120_000,
      });
      return JSON.parse(readFileSync(out, "utf8").trim()).kl_coef;
    };
    expect(betaOf([])).toBe(2);
    // A β the user sets stays.
    expect(betaOf(["--set", "beta=0.1"])).toBe(0.1);
  });

  it("reward=proxy optimises the shipped reward model (rm.onnx, as in the page): reward ≠ reward_gold", () => {
    const dir = mkdtempSync(join(tmpdir(), "lab-"));
    const out = join(dir, "run.jsonl");
    execFileSync(
      "node",
      [
        ...LAB,
        "train",
        "--task",
        "arithmetic",
        "--algo",
        "grpo",
        "--model",
        "nano",
        "--steps",
        "2",
        "--set",
        "reward=proxy",
        "--set",
        "batchPrompts=2",
        "--set",
        "numGenerations=2",
        "--set",
        "maxNewTokens=4",
        "--out",
        out,
      ],
      { stdio: "pipe", timeout: 120_000, env: { ...process.env } },
    );
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(Number.isFinite(l.reward)).toBe(true);
      // The arithmetic gold scorer gives 0 or 1 per completion; the learned RM a real-valued score.
      expect(l.reward).not.toBe(l.reward_gold);
    }
  });

  it("rejects a bad setting with a clear message and a non-zero exit", () => {
    let err: { status?: number; stderr?: Buffer } = {};
    try {
      execFileSync(
        "node",
        [
          ...LAB,
          "train",
          "--task",
          "arithmetic",
          "--algo",
          "grpo",
          "--model",
          "nano",
          "--set",
          "epsilon=abc",
        ],
        { stdio: "pipe", timeout: 60_000 },
      );
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.status).toBe(1);
    expect(String(err.stderr)).toMatch(/grpo.epsilon must be a number/);
  });

  it("runs the Pipeline headless: SFT, reward model, the SFT model's evaluation, as JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "lab-"));
    const out = join(dir, "pipeline.json");
    const args = ["pipeline", "--task", "arithmetic", "--set", "sftSteps=6", "--set", "rmSteps=3"];
    const stdout = execFileSync("node", [...LAB, ...args, "--set", "evalPairs=8", "--out", out], {
      stdio: "pipe",
      timeout: 120_000,
    });
    const r = JSON.parse(readFileSync(out, "utf8"));
    // stdout is the result alone (progress goes to stderr): `lab pipeline … > result.json` works too.
    expect(JSON.parse(String(stdout))).toEqual(r);
    expect(r.recipe).toBe("quick");
    expect(r.settings).toMatchObject({ size: "nano", sftSteps: 6, rmSteps: 3, evalPairs: 8 });
    expect(r.pairs).toBe("public/models/arithmetic/rm-preferences.jsonl"); // the page's stage-2 pairs
    expect(r.sft.steps).toBe(6);
    expect(r.sft.lastLoss).toBeLessThan(r.sft.firstLoss);
    expect(r.rm.steps).toBe(3);
    expect(r.rm.evalAfter.pairs).toBe(8);
    expect(r.sft.evaluation.prompts).toBeGreaterThan(0);
    let err: { status?: number; stderr?: Buffer } = {};
    try {
      execFileSync("node", [...LAB, ...args, "--set", "sftLr=fast"], { stdio: "pipe", timeout: 60_000 });
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.status).toBe(1);
    expect(String(err.stderr)).toMatch(/pipeline\.sftLr must be a number/);
  });

  it("refuses a bad command line before any work, naming the problem (exit 1), and prints usage on --help", () => {
    const run = (...args: string[]) => {
      try {
        return {
          status: 0,
          out: execFileSync("node", [...LAB, ...args], { stdio: "pipe", timeout: 60_000 }).toString(),
        };
      } catch (e) {
        const err = e as { status?: number; stderr?: Buffer };
        return { status: err.status, out: String(err.stderr) };
      }
    };
    const train = ["train", "--task", "arithmetic", "--algo", "ppo", "--model", "nano"];
    const dir = mkdtempSync(join(tmpdir(), "lab-"));
    const cases: [string[], RegExp][] = [
      [[...train, "--step", "5"], /Unknown option '--step'\nusage: lab train/], // a typo once trained 20 steps
      // Not an own key of the registry: once "info.fields is not iterable".
      [
        ["train", "--task", "arithmetic", "--algo", "constructor"],
        /unknown algorithm "constructor" \(known: ppo,/,
      ],
      [[...train, "--steps", "abc"], /--steps must be a whole number ≥ 1, got "abc"/],
      [[...train, "--seed", "1.5"], /--seed must be a whole number in \[0, 2147483647\], got "1.5"/],
      // A seed a link cannot hold is refused (a run with it could not be reopened from the lab).
      [
        [...train, "--seed", "3000000000"],
        /--seed must be a whole number in \[0, 2147483647\], got "3000000000"/,
      ],
      [[...train, "--out", dir], /--out .*: cannot write there \(it is a folder\)/], // once: a crash after training
      [[...train, "--set", "lr=Infinity"], /ppo\.lr must be a number in \[0, 1\], got Infinity/],
      // Beyond a float: 1e-400 trained at lr 0, silently; 1e400 was "got Infinity" (a reviewer).
      [
        [...train, "--set", "lr=1e-400"],
        /ppo\.lr 1e-400 is too small to be told from 0 \(give 0 if 0 is meant\)/,
      ],
      [[...train, "--set", "lr=1e400"], /ppo\.lr must be a number in \[0, 1\], got "1e400"/],
      // Number() reads hex: 0x10 was taken as 16 (and refused as out of range with "got 16").
      [[...train, "--set", "lr=0x10"], /ppo\.lr must be a number \(decimal: 0\.1, 5, 3e-4\), got "0x10"/],
      [["eval", "--task", "arithmetic", "--samples", "0"], /--samples must be a whole number ≥ 1, got "0"/],
      [
        ["eval", "--task", "arithmetic", "--temperature", "0x1"],
        /--temperature must be a number in \[0, 100\], got "0x1"/,
      ],
      [["lesson", "kl-estimators", "--seeds", "0,,1"], /--seeds must be whole numbers/],
      // Bounded as --seed is elsewhere (a link cannot hold a larger one): 99999999999 was accepted.
      [
        ["lesson", "kl-estimators", "--seeds", "0,99999999999"],
        /--seeds must be whole numbers in \[0, 2147483647\] separated by commas, got "0,99999999999"/,
      ],
      [[...train, "--out", ""], /--out needs a value, got ""/], // once: ran with no log written
      // The page's reward sources: once "press 'Use in RL' first", the page's instruction.
      [
        [...train, "--set", "reward=pipeline"],
        /--set reward=pipeline scores with the reward model the page's Pipeline trained; here: gold or proxy/,
      ],
      [
        ["pipeline", "--task", "arithmetic", "--set", "sftSteps=abc"],
        /pipeline\.sftSteps must be a number \(a whole number such as 8\), got "abc"/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.out, args.join(" ")).toMatch(message);
    }
    const help = run("train", "--help");
    expect(help.status).toBe(0);
    expect(help.out).toMatch(/^usage: lab train --task/);
    // The ids a command line needs, from the tables the CLI checks against (a reviewer had to read the source).
    for (const id of ALGO_IDS) expect(help.out).toContain(`${id} (${ALGORITHMS[id].title})`);
    const grpo = run("train", "--algo", "grpo", "--help");
    for (const f of ALGORITHMS.grpo.fields) expect(grpo.out).toMatch(new RegExp(`^  ${f.key} +\\S`, "m"));
    expect(grpo.out).toMatch(/^ {2}scaleRewards +one of group\|batch\|none, default group: /m);
    expect(grpo.out).toMatch(/^ {2}beta +number 0–10, default 0\.04: .*\(TRL: beta\)$/m);
    expect(grpo.out).toMatch(
      /^ {2}reward +one of gold\|proxy \(custom, pipeline: in the page only\), default gold: /m,
    );
    const lessons = run("lesson", "--help");
    expect(lessons.status).toBe(0);
    for (const id of PRESET_IDS) expect(lessons.out).toMatch(new RegExp(`^  ${id}: \\S`, "m"));
  });
});
