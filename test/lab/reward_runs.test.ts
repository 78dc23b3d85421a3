/**
 * Reward sources on the worker's runs (src/lab/reward_sources.ts, src/lab/runs.ts) on a real WebGPU device:
 * a run with reward "proxy" optimises the shipped arithmetic rm.onnx (onnxruntime-web, WASM), loaded once for
 * every run that asks; its `reward` is the RM's score of its samples, its `reward_gold` the verifier's; the
 * source switches between steps (with a marker) only to a loaded model; a corrupt user file is refused with
 * a named error and changes nothing; a valid one becomes "custom".
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import type { ExperimentSpec, RunUpdate } from "../../src/lab/protocol";
import { loadResources } from "../../src/lab/resources";
import { type OnnxLoader, RewardSourceError, RewardSources } from "../../src/lab/reward_sources";
import type { LabRun } from "../../src/lab/runs";
import { LabRuns } from "../../src/lab/runs";
import { REWARD_DIGEST_KEY } from "../../src/lab/saved_origin";
import { Scheduler } from "../../src/lab/scheduler";
import { decodeSafetensors, encodeSafetensors } from "../../src/model/safetensors";
import { loadOnnxRewardModel, OnnxRewardModelError } from "../../src/rewards/onnx_reward_model";
import { bytesDigest } from "../../src/util/digest";
import { testGpu } from "../helpers/gpu";

const BASE = "http://lab.test/";
const RM = "public/models/arithmetic/rm.onnx";

/** fetch over public/ (tokenizers and, when `withRm`, the arithmetic rm.onnx); 404 for the rest. */
function serve(withRm: boolean): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    const path = new URL(String(input)).pathname;
    if (path.endsWith("/tokenizer.json") || (withRm && path === "/models/arithmetic/rm.onnx"))
      return new Response(await readFile(`public${path}`), { status: 200 });
    return new Response("not found", { status: 404 });
  }) as typeof fetch;
}

async function setup(withRm = true) {
  const base = testExperiment();
  const spec: ExperimentSpec = {
    ...base,
    runs: [
      { ...base.runs[2], id: "grpo-proxy", config: { ...base.runs[2].config, reward: "proxy" } },
      { ...base.runs[2], id: "grpo-gold" },
    ],
  };
  const ctx = await testGpu();
  const fetchFn = serve(withRm);
  const res = await loadResources(spec, BASE, fetchFn);
  let loads = 0;
  const loadOnnx: OnnxLoader = (bytes, V, padId) => {
    loads++;
    return loadOnnxRewardModel(bytes, V, { padId });
  };
  let starts = 0; // the loading line's "reward" stage: the file has come, its runtime starts
  const rewards = new RewardSources(res.task, res.tokenizer, {
    baseUrl: BASE,
    fetchFn,
    loadOnnx,
    onProxyLoading: () => starts++,
  });
  const runs = new LabRuns(ctx, res, spec.seed, rewards);
  const updates: RunUpdate[] = [];
  const s = new Scheduler({ factory: runs, onUpdate: (u) => updates.push(...u), flushMs: 0 });
  for (const r of spec.runs) await s.addRun(r, true);
  return { res, runs, rewards, s, updates, spec, loads: () => loads, starts: () => starts };
}

describe("reward sources in the lab's runs (GPU + onnxruntime-web)", () => {
  it("reward=proxy optimises the shipped RM: reward is the RM's score, reward_gold the verifier's", async () => {
    const t = await setup();
    expect(t.s.runOf("grpo-proxy")?.config.reward).toBe("proxy");
    expect(t.s.runOf("grpo-gold")?.config.reward).toBe("gold");
    expect(t.rewards.proxyInfo?.name).toBe("models/arithmetic/rm.onnx");
    // A second run asking for the proxy shares the loaded model.
    await t.s.addRun({ ...t.spec.runs[0], id: "grpo-proxy-2" });
    expect(t.loads()).toBe(1);
    expect(t.starts()).toBe(1);
    await t.s.stepOnce();
    await t.s.stepOnce();
    t.s.flush();
    const points = (id: string) => t.updates.filter((u) => u.runId === id).flatMap((u) => u.points);
    const proxy = points("grpo-proxy");
    expect(proxy.map((p) => p.step)).toEqual([1, 2]);
    for (const p of proxy) {
      expect(Number.isFinite(p.metrics.reward) && Number.isFinite(p.metrics.reward_gold)).toBe(true);
      expect(p.metrics.reward).not.toBe(p.metrics.reward_gold);
    }
    // The gold run optimises the gold score itself.
    for (const p of points("grpo-gold")) expect(p.metrics.reward).toBe(p.metrics.reward_gold);
    // The proxy run's sample rewards are the RM's scores of those samples (scored again here).
    const samples = t.updates.filter((u) => u.runId === "grpo-proxy" && u.samples).at(-1)?.samples ?? [];
    expect(samples.length).toBeGreaterThan(0);
    const tok = t.res.tokenizer;
    const rm = await t.rewards.get("proxy");
    const again = await rm.score(
      samples.map((v) => ({
        prompt: tok.encode(v.prompt, { bos: true }),
        completion: tok.encode(v.completion.map((x) => x.text).join("")),
      })),
    );
    for (const [i, v] of samples.entries()) expect(v.reward).toBeCloseTo(again[i], 5);
    expect(samples.some((v) => v.reward !== v.gold)).toBe(true);
  });

  it("switches sources between steps only to a loaded model; user files are checked first", async () => {
    const t = await setup();
    await t.s.stepOnce();
    const run = t.s.runOf("grpo-gold") as LabRun;
    // No user model yet: the change is refused and nothing changes.
    await expect(t.s.setConfig("grpo-gold", { reward: "custom", lr: 0.5 })).rejects.toThrow(
      /no custom reward model is loaded/,
    );
    expect(run.config.reward).toBe("gold");
    expect(run.config.lr).not.toBe(0.5);
    await expect(t.s.setConfig("grpo-gold", { reward: "bogus" })).rejects.toThrow(/reward must be one of/);
    // A corrupt file: a named error, the custom source stays empty.
    const bytes = new Uint8Array(await readFile(RM));
    const corrupt = bytes.slice(0, 5000);
    const err = await t.rewards.loadCustom(corrupt, "broken.onnx").catch((e) => e);
    expect(err).toBeInstanceOf(OnnxRewardModelError);
    expect((err as OnnxRewardModelError).kind).toBe("not-onnx");
    expect(t.rewards.custom).toBeNull();
    // Another task's reward model passes the contract (its 83-row embedding covers these 16 ids) but its
    // metadata names the sentiment tokenizer: refused, naming both, and nothing changes.
    const other = new Uint8Array(await readFile("public/models/sentiment/rm.onnx"));
    const foreign = await t.rewards.loadCustom(other, "sentiment-rm.onnx").catch((e) => e);
    expect(foreign).toBeInstanceOf(RewardSourceError);
    expect(String(foreign.message)).toBe(
      'it was made for models/sentiment/tokenizer.json, not this task\'s models/arithmetic/tokenizer.json (its metadata "tokenizer"): its token ids stand for other characters here, so its scores would mean nothing',
    );
    expect(t.rewards.custom).toBeNull();
    // A valid file becomes "custom"; the run switches at its next step, with a marker.
    const info = await t.rewards.loadCustom(bytes, "mine.onnx");
    expect(info).toMatchObject({ name: "mine.onnx", vocabSize: 16, maxLength: 16 });
    await t.s.setConfig("grpo-gold", { reward: "custom" });
    expect(run.config.reward).toBe("custom");
    expect(run.env.reward.name).toBe("custom-rm:mine.onnx");
    await t.s.stepOnce();
    t.s.flush();
    const mine = t.updates.filter((u) => u.runId === "grpo-gold");
    expect(mine.flatMap((u) => u.markers ?? []).map((m) => m.label)).toContain("reward gold → custom");
    const last = mine.flatMap((u) => u.points).at(-1);
    expect(last?.step).toBe(2);
    expect(Number.isFinite(last?.metrics.reward)).toBe(true);
    expect(last?.metrics.reward).not.toBe(last?.metrics.reward_gold);
    // A fork keeps its source's reward.
    await t.s.forkRun("grpo-gold", { id: "fork", algo: "grpo", label: "fork", config: {} });
    expect(t.s.runOf("fork")?.config.reward).toBe("custom");
  });

  it("a task without a shipped RM: reward=proxy names the missing file; the gold runs go on", async () => {
    const t = await setup(false);
    expect(t.s.runOf("grpo-proxy")).toBeNull();
    await t.s.stepOnce();
    t.s.flush();
    const err = t.updates.find((u) => u.runId === "grpo-proxy" && u.error)?.error ?? "";
    expect(err).toMatch(/ships no proxy reward model \(models\/arithmetic\/rm\.onnx\)/);
    expect(t.updates.filter((u) => u.runId === "grpo-gold").flatMap((u) => u.points)).toHaveLength(1);
    await expect(t.rewards.get("proxy")).rejects.toBeInstanceOf(RewardSourceError);
  });

  it("a run trained on the proxy comes back on another file of it: it resumes, told and marked at its next step", async () => {
    const t = await setup();
    await t.s.stepOnce();
    const spec = t.spec.runs[0];
    const bytes = await (t.s.runOf("grpo-proxy") as LabRun).safetensors(spec, 0);
    const f = decodeSafetensors(bytes);
    const shipped = bytesDigest(new Uint8Array(await readFile(RM)));
    expect(f.metadata[REWARD_DIGEST_KEY]).toBe(shipped);
    // A gold run's checkpoint names no reward model file.
    const gold = await (t.s.runOf("grpo-gold") as LabRun).safetensors(t.spec.runs[1], 0);
    expect(decodeSafetensors(gold).metadata[REWARD_DIGEST_KEY]).toBeUndefined();
    const at = { step: 1, samples: 4, tokens: 16 };
    const resume = async (meta: Record<string, string>) => {
      const b = await setup();
      const file = encodeSafetensors(
        [...f.tensors.entries()].map(([name, x]) => ({ name, ...x })),
        meta,
      );
      const told = await b.s.resumeRun("grpo-proxy", at, (r) => b.runs.loadSaved("grpo-proxy", r, file, 1));
      return { b, told };
    };
    // The same file: nothing to tell.
    expect((await resume(f.metadata)).told).toBeNull();
    // Another file (the sentiment RM was retrained between two versions of the lab): the run resumes, the page
    // is told, and its next step is marked as a setting's change would be.
    const older = "0123abcd".repeat(8);
    const { b, told } = await resume({ ...f.metadata, [REWARD_DIGEST_KEY]: older });
    expect(told).toBe(
      `${spec.label} trained on another version of the proxy reward model models/arithmetic/rm.onnx (SHA-256 0123abcd…; this version of the lab ships ${shipped.slice(0, 8)}…): from step 2 its proxy reward is the new model's, marked on the charts; a new run compares like with like.`,
    );
    // Step once brings the gold run level first (it is one step behind), then both step.
    await b.s.stepOnce();
    await b.s.stepOnce();
    b.s.flush();
    const markers = b.updates.filter((u) => u.runId === "grpo-proxy").flatMap((u) => u.markers ?? []);
    expect(markers).toEqual([
      {
        runId: "grpo-proxy",
        step: 2,
        label: `proxy RM 0123abcd → ${shipped.slice(0, 8)}`,
        changes: [
          {
            key: "proxy-rm",
            from: "0123abcd",
            to: shipped.slice(0, 8),
            label: `proxy RM 0123abcd → ${shipped.slice(0, 8)}`,
          },
        ],
      },
    ]);
  });
});
