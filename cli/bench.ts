/**
 * `npm run bench [-- --json] [-- --quick]`: kernel and model benchmarks on the adapter this process gets, each
 * against TF.js's WebGPU backend in the same process on the same device (ratios, not absolute times, are the
 * point: machines are shared). A benchmark, never a test.
 */
import { acquireGpu } from "../src/gpu/device";
import { autotune } from "../src/kernels/autotune";
import { benchMatmul } from "./bench/matmul";
import { tfjsOnDevice } from "./bench/tfjs-peer";

const json = process.argv.includes("--json");
const quick = process.argv.includes("--quick");
const ctx = await acquireGpu();
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
const matmulRows = await benchMatmul(ctx, tf, shapes, quick ? 3 : 5);
const report = {
  adapter: ctx.adapter.name,
  software: ctx.adapter.isSoftware,
  autotune: tune,
  matmul: matmulRows,
};
if (json) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`adapter: ${report.adapter}${report.software ? " (software)" : ""}`);
  console.log(
    `autotune: matmul → ${tune.matmul.variant} (${Object.entries(tune.matmul.ms)
      .map(([k, v]) => `${k} ${v.toFixed(2)} ms`)
      .join(", ")})`,
  );
  console.log("\nmatmul GFLOP/s (M×N×K)      tiled   regtile    tfjs   ours/tfjs");
  for (const r of matmulRows)
    console.log(
      `  ${r.shape.padEnd(24)} ${r.gflops.tiled.toFixed(3).padStart(8)} ${r.gflops.regtile.toFixed(3).padStart(9)} ${r.gflops.tfjs.toFixed(3).padStart(7)} ${r.ratio.toFixed(2).padStart(9)}×`,
    );
}
ctx.destroy();
await ctx.lost;
process.exit(0);
