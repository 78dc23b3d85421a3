/**
 * `npm run bench -- [--json] [--quick]`: kernel and model benchmarks on the adapter this process gets, each
 * against a baseline in the same process on the same device — TF.js's WebGPU backend (matmul, a full train step
 * of the TF.js twin, cli/bench/tfjs-gpt.ts), full recomputation (KV-cached sampling) — (ratios, not absolute
 * times, are the point: machines are shared). A benchmark, never a test.
 */
import { acquireGpu } from "../src/gpu/device";
import { throttleDawnPolling } from "../src/gpu/node_poll";
import { autotune } from "../src/kernels/autotune";
import { scriptArgs } from "./args";
import { benchMatmul } from "./bench/matmul";
import { benchSampling } from "./bench/sampling";
import { tfjsOnDevice } from "./bench/tfjs-peer";
import { benchTrainStep } from "./bench/train_step";

const { values: flags } = scriptArgs("usage: npm run bench -- [--json] [--quick]", {
  options: { json: { type: "boolean" }, quick: { type: "boolean" } },
});
const json = flags.json === true;
const quick = flags.quick === true;
const ctx = await acquireGpu();
// Timed calls sync once per batch: keep Dawn's busy poll so a readback resolves at once (src/gpu/node_poll.ts).
throttleDawnPolling(0);
const tf = await tfjsOnDevice(ctx);
const tune = await autotune(ctx);
const shapes: [number, number, number][] = quick
  ? [
      [64, 64, 64],
      [128, 384, 128],
    ]
  : [
      [64, 64, 64],
      [128, 384, 128],
      [256, 256, 256],
      [256, 512, 128],
    ];
const matmulRows = await benchMatmul(ctx, tf, shapes, quick ? 3 : 5, tune.matmul.variant);
// Model-level: a full train step of `tiny` (ours vs TF.js, same device) and KV-cached vs recomputing sampling.
// --quick keeps one step to a few seconds on SwiftShader (B·T = 128 tokens) and samples 16 tokens instead of 64.
const trainStep = await benchTrainStep(
  ctx,
  tf,
  quick ? { model: "tiny", B: 2, T: 64, steps: 2 } : { model: "tiny", B: 8, T: 128, steps: 3 },
);
const sampling = await benchSampling(
  ctx,
  quick ? { model: "tiny", B: 4, P: 16, S: 16, reps: 1 } : { model: "tiny", B: 8, P: 32, S: 64, reps: 2 },
);
const report = {
  adapter: ctx.adapter.name,
  software: ctx.adapter.isSoftware,
  autotune: tune,
  matmul: matmulRows,
  trainStep,
  sampling,
};
if (json) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`adapter: ${report.adapter}${report.software ? " (software)" : ""}`);
  console.log(
    `autotune: matmul → ${tune.matmul.variant} (${Object.entries(tune.matmul.ms)
      .map(([k, v]) => `${k} ${v.toFixed(2)} ms`)
      .join(", ")})`,
  );
  console.log(
    `\nmatmul GFLOP/s (M×N×K)      tiled   regtile    tfjs  best/tfjs  ${tune.matmul.variant}/tfjs (picked)`,
  );
  for (const r of matmulRows)
    console.log(
      `  ${r.shape.padEnd(24)} ${r.gflops.tiled.toFixed(3).padStart(8)} ${r.gflops.regtile.toFixed(3).padStart(9)} ${r.gflops.tfjs.toFixed(3).padStart(7)} ${r.ratio.toFixed(2).padStart(9)}× ${r.pickedRatio.toFixed(2).padStart(9)}×`,
    );
  const t = trainStep;
  const s = sampling;
  const row = (name: string, a: number, b: number, ratio: number) =>
    `  ${name.padEnd(44)} ${a.toFixed(1).padStart(10)} ${b.toFixed(1).padStart(10)} ${ratio.toFixed(2).padStart(8)}×`;
  console.log(`\nmodel (tokens/s, wall clock after a warm-up)          ours   baseline    ratio`);
  console.log(
    row(
      `train step ${t.model} B=${t.B} T=${t.T} (vs TF.js, Adam)`,
      t.tokensPerS.ours,
      t.tokensPerS.tfjs,
      t.ratio,
    ),
  );
  console.log(
    row(
      `sampling ${s.model} B=${s.B} P=${s.P} S=${s.S} (KV vs recompute)`,
      s.tokensPerS.cached,
      s.tokensPerS.recompute,
      s.ratio,
    ),
  );
  console.log(
    `  step ms: ours ${t.ms.ours.toFixed(0)}, TF.js ${t.ms.tfjs.toFixed(0)}; loss ours ${t.loss.ours.map((l) => l.toFixed(3)).join(" → ")}, TF.js ${t.loss.tfjs.map((l) => l.toFixed(3)).join(" → ")}`,
  );
  console.log(`  generate ms: KV cache ${s.ms.cached.toFixed(0)}, recompute ${s.ms.recompute.toFixed(0)}`);
}
ctx.destroy();
await ctx.lost;
process.exit(0);
