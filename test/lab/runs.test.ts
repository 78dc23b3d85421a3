/**
 * The worker's runtime on a real WebGPU device (Dawn; SwiftShader without a GPU), without the worker: shared
 * resources loaded through a fetch over public/, the opening PPO/DPO/GRPO runs stepped by the scheduler,
 * sample views, fork (weights + AdamW moments + step), CPU checkpoints and restore, safetensors export and
 * load, and the clear start-up errors.
 */
import { describe, expect, it } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import { LabLoadError, loadResources } from "../../src/lab/resources";
import { formatSetting } from "../../src/lab/run_slot";
import { CHECKPOINT_EVERY, type LabRun, LabRuns } from "../../src/lab/runs";
import { START_DIGEST_KEY } from "../../src/lab/saved_origin";
import { loadCheckpoint } from "../../src/model/checkpoint";
import { decodeSafetensors, encodeSafetensors } from "../../src/model/safetensors";
import { testGpu } from "../helpers/gpu";
import { BASE, PREFS, publicFetch, serve, setup } from "../helpers/lab_runtime";

describe("lab runtime (GPU)", () => {
  it("loads the test experiment and steps PPO, DPO and GRPO with finite metrics and sample views", async () => {
    const t = await setup();
    expect(t.res.start.source).toBe("nano (random init, seed 0)");
    expect(t.res.notices.join(" ")).toMatch(/DPO trains online/);
    expect(t.runs.effectiveConfig(t.spec.runs[1]).mode).toBe("online");
    await t.s.stepOnce();
    await t.s.stepOnce();
    t.s.flush();
    for (const r of t.spec.runs) {
      const mine = t.updates.filter((u) => u.runId === r.id);
      const pts = mine.flatMap((u) => u.points);
      expect(
        pts.map((p) => p.step),
        r.id,
      ).toEqual([1, 2]);
      for (const p of pts)
        for (const k of ["reward", "objective/kl", "entropy"])
          expect(Number.isFinite(p.metrics[k]), k).toBe(true);
      expect(mine.at(-1)?.status).toBe("paused");
      const samples = mine.flatMap((u) => u.samples ?? []);
      expect(samples.length).toBeGreaterThan(0);
      const tok = samples[0].completion[0];
      expect(tok.prob).toBeCloseTo(Math.exp(tok.logp), 6);
      expect(Number.isFinite(tok.kl) && Number.isFinite(tok.entropy)).toBe(true);
      // PPO and GRPO send the update's advantages and the ratio its last update saw (1 at μ = 1: π_θ = π_old
      // before that update's step); DPO has neither.
      if (r.algo === "dpo") {
        expect(tok.advantage).toBeNull();
        expect(tok.ratio).toBeNull();
      } else {
        expect(typeof tok.advantage).toBe("number");
        expect(tok.ratio ?? Number.NaN).toBeCloseTo(1, 5);
      }
      expect(samples[0].prompt).toMatch(/^\d\d\+\d\d=$/);
    }
    t.s.dispose();
    t.runs.destroy();
  });

  it("DPO trains offline on a shipped preference dataset", async () => {
    const spec = { ...testExperiment(), runs: [testExperiment().runs[1]] };
    const res = await loadResources(spec, BASE, serve({ "/models/arithmetic/preferences.jsonl": PREFS }));
    expect(res.prefs?.size).toBe(2);
    expect(res.notices).toEqual([]);
    const runs = new LabRuns(await testGpu(), res, 0);
    expect(runs.effectiveConfig(spec.runs[0]).mode).toBeUndefined();
    const run = await runs.create(spec.runs[0]);
    expect(run.config.mode).toBe("offline");
    const out = await run.step();
    expect(Number.isFinite(out.metrics["rewards/margins"])).toBe(true);
    run.destroy();
    runs.destroy();
  });

  it("fork copies weights, AdamW moments and the step; checkpoints restore a run exactly", async () => {
    // An entropy bonus gives a gradient even when every reward ties (the random nano model gets no sum right).
    const grpo = testExperiment().runs[2];
    const bonus = { ...grpo, config: { ...grpo.config, entCoef: 0.1 } };
    const t = await setup({ ...testExperiment(), runs: [bonus] });
    for (let i = 0; i < 2; i++) await t.s.stepOnce();
    const src = t.s.runOf("grpo-1") as LabRun;
    const spec = { ...t.spec.runs[0], id: "grpo-2", label: "GRPO fork" };
    await t.s.forkRun("grpo-1", spec);
    const fork = t.s.runOf("grpo-2") as LabRun;
    expect(fork.run.stepsDone).toBe(2);
    const [a, b] = await Promise.all([src.checkpoint(), fork.checkpoint()]);
    expect(b.params).toEqual(a.params);
    const opt = a.optimizer;
    if (!opt) throw new Error("GRPO's checkpoint has no AdamW state");
    expect(opt.t).toBe(2);
    // Both moments have moved after two steps, and the fork has the same ones.
    expect(opt.m.some((x) => x !== 0) && opt.v.some((x) => x !== 0)).toBe(true);
    expect(b.optimizer?.t).toBe(opt.t);
    expect(b.optimizer?.m).toEqual(opt.m);
    expect(b.optimizer?.v).toEqual(opt.v);
    // The fork's next step is step 3 with the same prompts and seed as its source's step 3.
    await t.s.stepOnce();
    t.s.flush();
    const p3 = (id: string) =>
      t.updates.flatMap((u) => (u.runId === id ? u.points : [])).find((p) => p.step === 3);
    expect(p3("grpo-2")?.metrics.reward).toBeCloseTo(p3("grpo-1")?.metrics.reward ?? Number.NaN, 5);

    // Restore from the checkpoint the fork took: same weights, same step.
    expect(t.runs.checkpointStep("grpo-2")).toBe(2);
    const restored = await t.runs.restore(spec);
    expect(restored.step).toBe(2);
    const back = await (restored.run as LabRun).checkpoint();
    expect(back.params).toEqual(b.params);
    expect(back.optimizer?.t).toBe(opt.t);
    expect(back.optimizer?.m).toEqual(b.optimizer?.m);
    expect(back.optimizer?.v).toEqual(b.optimizer?.v);
    restored.run.destroy();
    t.s.dispose();
    t.runs.destroy();
  });

  it("adaptive KL: the exported settings hold the β the step trained with, the controller's next one apart", async () => {
    const ppo = testExperiment().runs[0];
    const spec = { ...ppo, config: { ...ppo.config, adaptiveKl: true } };
    const t = await setup({ ...testExperiment(), runs: [spec] });
    const run = t.s.runOf("ppo-1") as LabRun;
    const before = Number(run.config.beta);
    await t.s.stepOnce();
    const after = Number(run.config.beta);
    expect(after).not.toBe(before); // the controller moved β for the next step
    const info = loadCheckpoint(await run.safetensors(spec, 0)).info;
    expect(JSON.parse(info.settings).beta).toBe(before);
    expect(JSON.parse(info.settings_next).beta).toBe(after);
    const bytes = await run.safetensors(spec, 0);
    // A policy with a non-finite weight is never saved (a reload or an import would resume it and fail again).
    const params = await run.env.policy.download();
    params[3] = Number.NaN;
    run.env.policy.upload(params);
    await expect(run.safetensors(spec, 0)).rejects.toThrow(
      /weights hold a non-finite value \(NaN, parameter 3\)/,
    );
    // Resumed from the sound weights (a reload), the controller's β is its state, not a change to mark.
    await t.s.reset();
    await t.s.resumeRun("ppo-1", { step: 1, samples: 2, tokens: 8 }, (r) =>
      t.runs.loadSaved("ppo-1", r, bytes, 1),
    );
    t.updates.length = 0;
    await t.s.stepOnce();
    t.s.flush();
    expect(t.updates.flatMap((u) => u.markers ?? [])).toEqual([]);
    t.s.dispose();
    t.runs.destroy();
  });

  it(`checkpoints every ${CHECKPOINT_EVERY} steps; safetensors export loads back into a run`, async () => {
    const t = await setup({ ...testExperiment(), runs: [testExperiment().runs[0]] });
    for (let i = 0; i < CHECKPOINT_EVERY; i++) await t.s.stepOnce();
    expect(t.runs.checkpointStep("ppo-1")).toBe(CHECKPOINT_EVERY);
    const run = t.s.runOf("ppo-1") as LabRun;
    const bytes = await run.safetensors(t.spec.runs[0], 0);
    const ck = loadCheckpoint(bytes);
    expect(ck.info).toMatchObject({ task: "arithmetic", algo: "ppo", steps: String(CHECKPOINT_EVERY) });
    expect(ck.params).toEqual((await run.checkpoint()).params);
    expect(JSON.parse(ck.info.settings).beta).toBe(run.config.beta);
    expect(ck.info.settings_next).toBeUndefined();

    // A knob changed after the last step: the weights trained with the old β; the new one is `settings_next`.
    const beta = Number(run.config.beta);
    run.setConfig({ beta: beta * 2 });
    const later = loadCheckpoint(await run.safetensors(t.spec.runs[0], 0)).info;
    expect(JSON.parse(later.settings).beta).toBe(beta);
    expect(JSON.parse(later.settings_next).beta).toBe(beta * 2);
    // A fork with another β, before its first step: its weights trained with the source's β.
    const forkSpec = { ...t.spec.runs[0], id: "ppo-2", config: { ...t.spec.runs[0].config, beta: beta * 3 } };
    await t.s.forkRun("ppo-1", forkSpec);
    const forked = loadCheckpoint(await (t.s.runOf("ppo-2") as LabRun).safetensors(forkSpec, 0)).info;
    expect(JSON.parse(forked.settings).beta).toBe(beta);
    expect(JSON.parse(forked.settings_next).beta).toBe(beta * 3);
    t.s.removeRun("ppo-2");
    run.setConfig({ beta });

    await t.s.reset();
    expect(t.runs.checkpointStep("ppo-1")).toBe(0);
    await t.s.resumeRun("ppo-1", { step: 10, samples: 20, tokens: 80 }, (r) =>
      t.runs.loadSaved("ppo-1", r, bytes, 10),
    );
    const again = t.s.runOf("ppo-1") as LabRun;
    expect(again.run.stepsDone).toBe(10);
    expect(again.trainedWith?.beta).toBe(JSON.parse(ck.info.settings).beta); // from the file's metadata
    expect((await again.checkpoint()).params).toEqual(ck.params);
    expect(t.runs.checkpointStep("ppo-1")).toBe(10);

    // A reload after β changed past this checkpoint: the worker builds the run with the new β and loads weights
    // that trained with the old one, so the next step is marked as a change.
    await t.s.reset();
    await t.s.setConfig("ppo-1", { beta: beta * 2 });
    await t.s.resumeRun("ppo-1", { step: 10, samples: 20, tokens: 80 }, (r) =>
      t.runs.loadSaved("ppo-1", r, bytes, 10),
    );
    t.updates.length = 0;
    await t.s.stepOnce();
    t.s.flush();
    expect(t.updates.flatMap((u) => u.markers ?? [])).toEqual([
      {
        runId: "ppo-1",
        step: 11,
        label: `beta ${formatSetting(beta)} → ${formatSetting(beta * 2)}`,
        changes: [
          {
            key: "beta",
            from: beta,
            to: beta * 2,
            label: `beta ${formatSetting(beta)} → ${formatSetting(beta * 2)}`,
          },
        ],
      },
    ]);
    t.s.dispose();
    t.runs.destroy();
  });

  it("a saved policy continues a run only from the start model its metadata names (same shapes or not)", async () => {
    const one = { ...testExperiment(), runs: [testExperiment().runs[0]] };
    const a = await setup(one);
    await a.s.stepOnce();
    const bytes = await (a.s.runOf("ppo-1") as LabRun).safetensors(one.runs[0], 0);
    a.s.dispose();
    a.runs.destroy();
    // Seed 1's nano model has seed 0's shapes: only the metadata tells them apart.
    const b = await setup({ ...one, seed: 1 });
    const at = { step: 1, samples: 2, tokens: 8 };
    await expect(b.s.resumeRun("ppo-1", at, (r) => b.runs.loadSaved("ppo-1", r, bytes, 1))).rejects.toThrow(
      "it was trained from nano (random init, seed 0), and this lab's runs start from nano (random init, seed 1)",
    );
    const f = decodeSafetensors(bytes);
    const withMeta = (meta: Record<string, string>) =>
      encodeSafetensors(
        [...f.tensors.entries()].map(([name, t]) => ({ name, ...t })),
        meta,
      );
    // The same name over other weights (a shipped model a newer version of the lab replaced, two Pipeline
    // hand-offs of one size): the weights' SHA-256 tells them apart.
    expect(f.metadata[START_DIGEST_KEY]).toMatch(/^[0-9a-f]{64}$/);
    const renamed = withMeta({ ...f.metadata, start: "nano (random init, seed 1)" });
    await expect(b.s.resumeRun("ppo-1", at, (r) => b.runs.loadSaved("ppo-1", r, renamed, 1))).rejects.toThrow(
      "it was trained from another version of nano (random init, seed 1): its weights differ from this lab's",
    );
    // A file that names no start model (another tool's, an older export) is taken on its shapes.
    const { start: _, [START_DIGEST_KEY]: __, ...meta } = f.metadata;
    const nameless = withMeta(meta);
    await b.s.resumeRun("ppo-1", at, (r) => b.runs.loadSaved("ppo-1", r, nameless, 1));
    expect((b.s.runOf("ppo-1") as LabRun).run.stepsDone).toBe(1);
    b.s.dispose();
    b.runs.destroy();
  });

  it("a missing shipped model falls back to a fresh tiny model with a notice; the manifest avoids 404s", async () => {
    const asked: string[] = [];
    const withManifest = (async (input: RequestInfo | URL) => {
      const path = new URL(String(input)).pathname;
      asked.push(path);
      if (path === "/models/manifest.json")
        return Response.json({ files: [{ path: "models/arithmetic/tokenizer.json" }] });
      return publicFetch(input);
    }) as typeof fetch;
    const spec = { ...testExperiment(), model: "sft" as const };
    const res = await loadResources(spec, BASE, withManifest);
    expect(res.start.source).toBe("tiny (random init, seed 0)");
    expect(res.notices.join(" ")).toMatch(/sft.safetensors is missing/);
    expect(asked).toEqual(["/models/manifest.json", "/models/arithmetic/tokenizer.json"]);
  });

  it("a shipped model answered by an error page is a start-up error, not a missing model (no random fallback)", async () => {
    // A proxy's 502 page, a school network's sign-in page: once read as "missing", the lab fell back to a random
    // tiny model and started the saved runs over on it, deleting their checkpoints.
    const manifest = serve({
      "/models/manifest.json": JSON.stringify({ files: [{ path: "models/arithmetic/sft.safetensors" }] }),
    });
    for (const status of [502, 200]) {
      const failing = (async (input: RequestInfo | URL) => {
        const path = new URL(String(input)).pathname;
        if (path === "/models/arithmetic/sft.safetensors")
          return new Response("<html>Bad gateway</html>", {
            status,
            headers: { "content-type": "text/html" },
          });
        return manifest(input);
      }) as typeof fetch;
      const load = loadResources({ ...testExperiment(), model: "sft" }, BASE, failing);
      await expect(load).rejects.toThrow(LabLoadError);
      await expect(load).rejects.toThrow(
        `could not download /models/arithmetic/sft.safetensors: the server answered HTTP ${status} with a web page`,
      );
    }
  });

  it("start-up errors name what is wrong; infeasible runs start in error, the others run", async () => {
    await expect(
      loadResources({ ...testExperiment(), task: "nope" as "arithmetic" }, BASE, publicFetch),
    ).rejects.toThrow(LabLoadError);
    const missing = (async () => new Response("", { status: 404 })) as unknown as typeof fetch;
    await expect(loadResources(testExperiment(), BASE, missing)).rejects.toThrow(
      /tokenizer could not be loaded/,
    );
    // sentiment prompts do not fit nano's 32-token context: that run is in error, the other is fine.
    const t = await setup({
      task: "sentiment",
      model: "nano",
      seed: 0,
      runs: [
        { id: "a", algo: "grpo", label: "GRPO", config: { maxNewTokens: 30 } },
        { id: "b", algo: "bon", label: "BoN", config: { maxNewTokens: 1, batchPrompts: 1, n: 2 } },
      ],
    });
    t.s.flush();
    const a = t.updates.find((u) => u.runId === "a");
    expect(a?.status).toBe("error");
    expect(a?.error).toMatch(/GRPO could not start: .*context length/);
    t.s.dispose();
    t.runs.destroy();
  });
});
