/**
 * The TRL script of a run imported for comparison (src/lab/export/trl_script.ts, ./trl_where.ts): it says the
 * task, reward, prompts, start model and seed of the run file it came from (its origin, src/lab/export/origin.ts),
 * never this lab's; where the file did not say, the script says so and leaves a placeholder that fails loudly.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunOrigin } from "../../src/lab/export/origin";
import { trlScript } from "../../src/lab/export/trl_script";
import type { RunSpec } from "../../src/lab/protocol";
import { python3 } from "../helpers/python";

const python = python3();
// This lab: sentiment, a fresh nano GPT, seed 7.
const here = { task: "sentiment" as const, model: "nano" as const, seed: 7 };
const grpo: RunSpec = { id: "grpo-1", algo: "grpo", label: "GRPO", config: { maxNewTokens: 64 } };
const dpo: RunSpec = { id: "dpo-1", algo: "dpo", label: "DPO", config: {} };
const now = new Date("2027-01-02T03:04:05.000Z");
const imported = (spec: RunSpec, origin?: RunOrigin) =>
  trlScript(here, { spec, step: 5, comparison: true, origin }, now);

describe("TRL script of an imported run", () => {
  it("uses its own file's task, reward, prompts, start model and seed, not this lab's", () => {
    const origin: RunOrigin = { task: "arithmetic", model: "sft", seed: 3 };
    const p = imported(grpo, origin);
    expect(p).toContain("GRPO on the arithmetic task");
    expect(p).toContain("start model: the shipped arithmetic SFT model, seed 3");
    expect(p).toMatch(/\nSEED = 3\n/);
    expect(p).toContain("Arithmetic gold score");
    expect(p).toContain('PROMPTS = [f"{a}+{b}=" for a in range(10, 100) for b in range(10, 100)]');
    expect(p).not.toContain("Sentiment gold score");
    expect(p).not.toContain("Moby-Dick");
    expect(p).not.toMatch(/SEED = 7/);
    // Its completion length is capped by the shipped arithmetic model's room, not by nano's on sentiment.
    expect(p).toContain("imported for comparison");
    // The same script as a run of a lab on that experiment, but for the note that it was imported.
    const native = trlScript(origin as typeof here, { spec: grpo, step: 5 }, now);
    expect(
      p.replace(/\nIt was imported for comparison[\s\S]*?the lab that exported this script\.\n/, ""),
    ).toBe(native);
  });

  it("its Pipeline start model is the file's, not this lab's hand-off", () => {
    const origin: RunOrigin = { task: "arithmetic", model: "sft", seed: 3, startModel: "pipeline: tiny" };
    const p = trlScript(here, { spec: grpo, step: 5, comparison: true, origin, handedOff: "pipeline: nano" });
    expect(p).toContain("trained in the page's Pipeline view (pipeline: tiny)");
    expect(p).not.toContain("pipeline: nano");
  });

  it("says 'unknown' and leaves failing placeholders where its file did not say", () => {
    for (const spec of [grpo, dpo]) {
      const p = imported(spec, {});
      expect(p).toContain("on an unknown task");
      expect(p).toContain("start model: unknown");
      expect(p).toContain("seed unknown");
      expect(p).toMatch(/\nSEED = 0 {2}# PLACEHOLDER: unknown/);
      expect(p).toContain('raise NotImplementedError("the run file this run came from did not say its task');
      expect(p).toContain("Replace the placeholders (MODEL_NAME, PROMPTS, score, SEED)");
      expect(p).toMatch(/\nPROMPTS = \[\] {2}# PLACEHOLDER/);
      expect(p).not.toContain("Sentiment gold score");
      expect(p).not.toContain("Moby-Dick");
      expect(p).not.toContain("sentiment");
      expect(p).not.toMatch(/SEED = 7/);
    }
    // A comparison run saved before origins were kept has none: the same.
    expect(imported(grpo)).toContain("on an unknown task");
    // A known task with an unknown seed and model: the task's reward, the rest unknown.
    const p = imported(grpo, { task: "arithmetic" });
    expect(p).toContain("Arithmetic gold score");
    expect(p).toContain("start model: unknown, seed unknown");
    expect(p).toMatch(/\nSEED = 0 {2}# PLACEHOLDER: unknown/);
  });

  it("a learned reward model's script names no task when the file did not say", () => {
    const p = imported({ ...grpo, config: { reward: "proxy" } }, {});
    expect(p).not.toContain("sentiment");
    expect(p).toContain("def gold_score(");
  });

  it.skipIf(!python)("compiles, and its placeholder score() fails loudly", () => {
    const dir = mkdtempSync(join(tmpdir(), "trl-origin-"));
    const f = join(dir, "unknown.py");
    writeFileSync(f, imported(grpo, {}));
    execFileSync(python!, ["-W", "error", "-m", "py_compile", f], { stdio: "pipe" });
    const src = imported(grpo, {});
    const reward = src.slice(src.indexOf("# UNKNOWN TASK"), src.indexOf("\nPROMPTS = "));
    const probe = join(dir, "probe.py");
    writeFileSync(
      probe,
      `${reward}\ntry:\n    score("a", "b")\nexcept NotImplementedError as e:\n    print(e)\n`,
    );
    expect(execFileSync(python!, [probe]).toString()).toContain("did not say");
  });
});
