/**
 * `npm run selftest`: run the kernel self-test in Node (Dawn through npm `webgpu`; SwiftShader when there is no
 * GPU) and print one line per case. Exits 1 if any kernel disagrees with its CPU twin, 2 if there is no GPU.
 */
import { acquireGpu } from "../src/gpu/device";
import { GpuUnavailableError, WEBGPU_HELP } from "../src/gpu/errors";
import { runSelfTest, type SelfTestResult, selfTestSummary } from "../src/kernels/selftest";
import { int, ms, sci3, tol } from "../src/ui/format";
import { scriptArgs } from "./args";

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => c.padEnd(widths[i])).join("  ");
}

function cells(r: SelfTestResult): string[] {
  return [
    r.kernel,
    r.shape,
    int(r.n),
    sci3(r.maxAbsError),
    `atol ${tol(r.tolerance.atol)} rtol ${tol(r.tolerance.rtol)}`,
    ms(r.gpuMs),
    r.ok ? "pass" : "FAIL",
  ];
}

// No options: --help prints this usage; anything else is refused before the GPU starts.
scriptArgs(
  "usage: npm run selftest  (the kernels of training, the RL losses and generation vs their CPU twins; exit 1 on a mismatch, 2 without a GPU)",
  {
    options: {},
  },
);

async function main(): Promise<number> {
  let ctx: Awaited<ReturnType<typeof acquireGpu>>;
  try {
    ctx = await acquireGpu();
  } catch (e) {
    if (e instanceof GpuUnavailableError) {
      console.error(`No WebGPU adapter (${e.reason}): ${e.message}\n${WEBGPU_HELP.node}`);
      return 2;
    }
    throw e;
  }
  const a = ctx.adapter;
  console.log(`adapter: ${a.name}${a.isSoftware ? " (software adapter: expect ~1 GFLOP/s)" : ""}`);
  console.log(`timestamp-query: ${ctx.hasTimestamps ? "yes" : "no"}\n`);

  const header = ["kernel", "shape", "elements", "max |err|", "tolerance", "GPU ms", "result"];
  const results = await runSelfTest(ctx);
  const table = [header, ...results.map(cells)];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  for (const r of table) console.log(row(r, widths));

  const passed = results.filter((r) => r.ok).length;
  console.log(`\n${selfTestSummary(results)}`);
  ctx.destroy();
  await ctx.lost;
  return passed === results.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
