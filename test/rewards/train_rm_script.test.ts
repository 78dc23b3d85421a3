import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandFlags, inputProblem, trainRewardModel } from "../../scripts/train-rm";
import { FACTS_FILE, shipRewardModel } from "../../scripts/train-rm/record";
import { loadCheckpoint } from "../../src/model/checkpoint";
import { type PreferenceRecord, preferencesToJsonl } from "../../src/tasks/preferences";
import { Rng } from "../../src/util/rng";

/** Whole training runs on nano: ~30 s alone on a CPU adapter, several times that on a busy machine. */
const SLOW_TEST_MS = 600_000;

const dir = mkdtempSync(join(tmpdir(), "train-rm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Synthetic arithmetic pairs: the gold-preferred completion is the true sum, the other the sum with a leading
 * zero (malformed, gold 0) — a rule a nano model learns in a few steps. 20% of labels are flipped.
 */
function syntheticPairs(n: number, evalShare: number, seed: number): PreferenceRecord[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const a = rng.int(10, 99);
    const b = rng.int(10, 99);
    const good = String(a + b);
    const flipped = rng.float() < 0.2;
    return {
      task: "arithmetic",
      prompt: `${a}+${b}=`,
      chosen: flipped ? `0${good}` : good,
      rejected: flipped ? good : `0${good}`,
      score_chosen: flipped ? 0 : 1,
      score_rejected: flipped ? 1 : 0,
      flipped,
      tie: false,
      split: i < n * evalShare ? "eval" : "train",
    };
  });
}

describe("scripts/train-rm.ts on nano with synthetic pairs", () => {
  it.each(["tfjs-wasm", "wgsl"] as const)(
    "trains from a fresh init (--preset) on %s, evaluates vs gold, writes rm.safetensors and rm.onnx",
    async (backend) => {
      const data = join(dir, "prefs.jsonl");
      writeFileSync(data, preferencesToJsonl(syntheticPairs(200, 0.2, 1)));
      const lines: string[] = [];
      const r = await trainRewardModel({
        task: "arithmetic",
        steps: 30,
        batch: 8,
        lr: 3e-3,
        data,
        preset: "nano", // a fresh nano init, not the shipped SFT checkpoint
        out: join(dir, `out-${backend}`),
        logEvery: 10,
        backend,
        // The WGSL run puts EOS on every completion (the old rule), the TF.js run only on those that ended.
        ...(backend === "wgsl" ? { eos: "always" as const } : {}),
        log: (l) => lines.push(l),
      });
      console.log(lines.join("\n"));
      expect(lines.join("\n")).toMatch(/init fresh nano init \(seed 0\)/);
      expect(lines.join("\n")).not.toMatch(/WARNING/); // asked for, not a fallback
      expect(lines.join("\n")).toMatch(
        backend === "wgsl" ? /training and scoring on wgsl/ : /on TF\.js WASM/,
      );
      expect(r.initFrom).toMatch(/fresh nano init/);
      expect(existsSync(r.rmPath) && existsSync(r.onnxPath)).toBe(true);
      expect(r.onnxMaxDiff).toBeLessThanOrEqual(1e-4);
      expect(r.after.eval.goldAccuracy).toBeGreaterThanOrEqual(0.9);
      // With 20% flipped labels, label accuracy of a gold-perfect ranker is ≈ 0.8, below its gold accuracy.
      expect(r.after.eval.labelAccuracy).toBeLessThan(r.after.eval.goldAccuracy);

      // Its facts file holds what the manifest would record; shipping refuses it: other pairs than the shipped.
      const facts = JSON.parse(readFileSync(join(dir, `out-${backend}`, FACTS_FILE), "utf8"));
      expect(facts).toMatchObject({
        steps: 30,
        batch_pairs: 8,
        lr: 3e-3,
        backend,
        eos: backend === "wgsl" ? "always" : "ended",
        data_sha256: expect.any(String),
      });
      expect(facts.eval_after.goldAccuracy).toBe(r.after.eval.goldAccuracy);
      expect(facts.init).toBe("fresh nano init (seed 0)");
      expect(facts.init_sha256).toBeUndefined(); // not the SFT checkpoint's, which it did not start from
      expect(facts.command).toBe(
        `npm run train-rm -- --task arithmetic --steps 30 --batch 8 --lr 0.003 --backend ${backend} --eos ${backend === "wgsl" ? "always" : "ended"}`,
      );
      expect(facts.input_flags).toMatch(/^ --data \S+prefs\.jsonl --preset nano$/);
      expect(() => shipRewardModel("arithmetic", join(dir, `out-${backend}`))).toThrow(
        /not on the shipped pairs public\/models\/arithmetic\/rm-preferences\.jsonl/,
      );
      // Facts that do not describe the files beside them (a later run failed after writing rm.onnx): refused.
      writeFileSync(join(dir, `out-${backend}`, "rm.onnx"), "not the model the facts describe");
      expect(() => shipRewardModel("arithmetic", join(dir, `out-${backend}`))).toThrow(
        /does not describe the rm\.safetensors and rm\.onnx beside it/,
      );

      // The saved checkpoint reproduces the reported held-out accuracy through a fresh load.
      const ck = loadCheckpoint(new Uint8Array(readFileSync(r.rmPath)));
      expect(ck.info.kind).toBe("reward-model");
      expect(Number(ck.info.eval_gold_accuracy)).toBeCloseTo(r.after.eval.goldAccuracy, 4);
    },
    SLOW_TEST_MS,
  );

  it("commandFlags quotes what a shell would split", () => {
    expect(commandFlags({ steps: 30, lr: 3e-4, data: "/tmp/my pairs/it's.jsonl", seed: undefined })).toBe(
      " --steps 30 --lr 0.0003 --data '/tmp/my pairs/it'\\''s.jsonl'",
    );
  });

  it("--ship refuses a folder without a run's files", () => {
    expect(() => shipRewardModel("sentiment", join(dir, "nothing-here"))).toThrow(/has no train-rm\.json/);
  });

  it("fails clearly without preference data, naming the script that makes it", async () => {
    await expect(
      trainRewardModel({ task: "arithmetic", data: join(dir, "none.jsonl"), out: dir }),
    ).rejects.toThrow(
      /--data \S*none\.jsonl: no such file \(npm run build-sft-preferences -- --task arithmetic/,
    );
  });

  it("refuses an --init that is not there, and --init with --preset, before any work", async () => {
    const data = join(dir, "refusals.jsonl");
    writeFileSync(data, preferencesToJsonl(syntheticPairs(20, 0.2, 2)));
    const missing = join(dir, "missing.safetensors");
    // It once trained from a fresh init with a WARNING and exited 0.
    expect(inputProblem("arithmetic", { data, init: missing })).toMatch(
      /^--init \S*missing\.safetensors: no such checkpoint/,
    );
    await expect(trainRewardModel({ task: "arithmetic", data, init: missing, out: dir })).rejects.toThrow(
      /no such checkpoint/,
    );
    // --preset was ignored when the checkpoint existed: it now starts a fresh init, and with --init is refused.
    const shippedSft = "public/models/arithmetic/sft.safetensors";
    expect(inputProblem("arithmetic", { data, init: shippedSft, preset: "nano" })).toMatch(
      /^--init and --preset: give one/,
    );
    expect(inputProblem("arithmetic", { data, preset: "huge" })).toMatch(
      /^--preset must be one of nano\|tiny\|small/,
    );
    expect(inputProblem("arithmetic", { data, preset: "nano" })).toBeNull();
    expect(inputProblem("arithmetic", { data, init: shippedSft })).toBeNull();
    expect(inputProblem("arithmetic", {})).toBeNull(); // the shipped pairs and SFT model
    expect(inputProblem("arithmetic", { data: join(dir, "none.jsonl") })).toMatch(
      /^--data \S*none\.jsonl: no such file \(npm run build-sft-preferences -- --task arithmetic --out DIR makes/,
    );
  });
});
