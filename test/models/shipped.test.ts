/**
 * The shipped models (public/models/): every file is listed in manifest.json with its true sha256, and each SFT
 * checkpoint — trained on TF.js's WASM backend by `npm run pretrain` — gives the same logits in our WGSL engine
 * as in the TF.js twin (cli/bench/tfjs-gpt.ts) on that backend: the saved weights are the model the lab runs.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { disposeTfGpt, tfGptForward, tfGptFromFlat } from "../../cli/bench/tfjs-gpt";
import { fileDigest, MANIFEST_PATH, PUBLIC_DIR, readManifest } from "../../scripts/models-manifest";
import { tfjsWasm } from "../../scripts/pretrain/tfjs-wasm";
import { GptActivations } from "../../src/model/activations";
import { leftPadBatch } from "../../src/model/batch";
import { readCheckpointPath } from "../../src/model/checkpoint_files";
import { gptForward } from "../../src/model/forward";
import { GptWeights } from "../../src/model/weights";
import { readTokenizerFile } from "../../src/tokenizer/node";
import { expectClose, testGpu } from "../helpers/gpu";

/**
 * f32 vs f32, two implementations with different summation orders (our tiled WGSL matmuls and fused softmax /
 * LayerNorm vs XNNPACK's SIMD dot products and TF.js's op-by-op LayerNorm): ~1e-7 relative per sum, grown
 * through 4 trained blocks whose LayerNorms rescale small-variance rows; trained logits reach |z| ≈ 10–20.
 * Measured on SwiftShader: worst |Δ| ≈ 5e-6; the bound leaves room for GPUs with other summation orders. A real
 * mismatch (a transposed or misplaced tensor, a wrong eps, a lost bias) moves logits by O(0.1–1).
 */
const LOGIT_TOL = { atol: 2e-4, rtol: 1e-4 };

/** A few sequences per task: `<bos>` + text, of different lengths so left padding is exercised. */
const SEQUENCES: Record<string, string[]> = {
  sentiment: ["Call me Ishmael. Some years ago", "The whale", "And what is the sea but a "],
  arithmetic: ["37+45=82", "9+", "99+99=198"],
};

function shippedFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith(".")) return []; // .gitkeep and the like
    const p = join(dir, name);
    return statSync(p).isDirectory() ? shippedFiles(p) : [relative(PUBLIC_DIR, p)];
  });
}

describe("shipped models (public/models)", () => {
  const manifest = readManifest();

  it("the manifest lists every shipped file with its sha256 and size", () => {
    const listed = new Set(manifest.files.map((f) => f.path));
    const manifestFile = relative(PUBLIC_DIR, MANIFEST_PATH);
    for (const path of shippedFiles(join(PUBLIC_DIR, "models")))
      if (path !== manifestFile)
        expect(listed.has(path), `${path} is not in ${MANIFEST_PATH} (scripts/models-manifest.ts)`).toBe(
          true,
        );
    for (const f of manifest.files) {
      const d = fileDigest(f.path);
      expect(d.sha256, `sha256 of ${f.path}`).toBe(f.sha256);
      expect(d.bytes, `size of ${f.path}`).toBe(f.bytes);
    }
  });

  it("every entry names the code that made it, or says it has none and which commit added the file", () => {
    for (const f of manifest.files) {
      expect(f, `${f.path}: code_revision`).toHaveProperty("code_revision");
      if (f.code_revision === null) expect(f.added_in, `${f.path}: added_in`).toMatch(/^[0-9a-f]{40}$/);
      else
        expect(f.code_revision, f.path).toEqual({
          commit: expect.stringMatching(/^[0-9a-f]{40}$/),
          dirty: false,
        });
    }
  });

  it("no shipped sidecar holds a run time (a fact of the run, kept in the manifest: a rebuild must match)", () => {
    const sidecars = manifest.files.filter((f) => f.path.endsWith(".meta.json"));
    expect(sidecars.length).toBeGreaterThan(0);
    for (const f of sidecars) {
      const keys = Object.keys(JSON.parse(readFileSync(join(PUBLIC_DIR, f.path), "utf8")));
      expect(
        keys.filter((k) => /time/.test(k)),
        f.path,
      ).toEqual([]);
      expect(f.run_time_s, `${f.path}: the manifest keeps the run time`).toEqual(expect.any(Number));
    }
  });

  it("each tokenizer's entry holds the command that makes it (npm run build-tokenizer)", () => {
    const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts;
    expect(scripts["build-tokenizer"]).toMatch(/scripts\/build-tokenizer\.ts$/);
    const tokenizers = manifest.files.filter((f) => f.kind === "tokenizer");
    expect(tokenizers.map((f) => f.task).sort()).toEqual(["arithmetic", "sentiment"]);
    for (const f of tokenizers) expect(f.command).toBe(`npm run build-tokenizer -- --task ${f.task}`);
  });

  for (const task of ["sentiment", "arithmetic"])
    it(`${task}: the SFT checkpoint's logits in our WGSL engine equal the TF.js twin's (WASM backend)`, async () => {
      const entry = manifest.files.find((f) => f.kind === "sft" && f.task === task);
      expect(entry, `no sft checkpoint for ${task} in the manifest`).toBeDefined();
      const ck = await readCheckpointPath(join(PUBLIC_DIR, entry!.path));
      expect(ck.tokenizer).toBe(`models/${task}/tokenizer.json`);
      expect(ck.info.task).toBe(task);
      const tok = readTokenizerFile(join(PUBLIC_DIR, ck.tokenizer));
      expect(ck.config.vocabSize).toBe(tok.vocabSize);
      const seqs = SEQUENCES[task].map((s) => [tok.bosId, ...tok.encode(s)]);
      const batch = leftPadBatch(seqs, Math.max(...seqs.map((s) => s.length)), tok.padId);

      const ctx = await testGpu();
      const w = new GptWeights(ctx, ck.config, ck.params);
      const acts = new GptActivations(ctx, ck.config, batch.B, batch.T);
      ctx.upload(acts.tokens, batch.tokens);
      ctx.upload(acts.positions, batch.positions);
      ctx.upload(acts.keyMask, batch.keyMask);
      gptForward(ctx, w, acts);
      const ours = await ctx.read(acts.logits);
      acts.destroy();
      w.destroy();

      const { tf } = await tfjsWasm();
      const m = await tfGptFromFlat(tf, ck.config, ck.params);
      const out = tfGptForward(m, batch);
      const twin = (await out.logits.data()) as Float32Array;
      for (const t of Object.values(out)) t.dispose();
      disposeTfGpt(m);
      // Only real positions: a padding slot's logits are defined but meaningless.
      const keep = (xs: ArrayLike<number>) =>
        Array.from(batch.keyMask).flatMap((k, n) =>
          k ? Array.from(xs).slice(n * tok.vocabSize, (n + 1) * tok.vocabSize) : [],
        );
      const [a, b] = [keep(ours), keep(twin)];
      expect(Math.max(...b.map(Math.abs))).toBeGreaterThan(1); // a trained model, not near-uniform logits
      expectClose(`${task} logits WGSL vs TF.js (WASM)`, a, b, LOGIT_TOL);
    });
});
