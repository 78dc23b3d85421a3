/**
 * A linear dispatch past the device's maxComputeWorkgroupsPerDimension (65,535 by default) is split over x and y
 * (src/gpu/context.ts, gridFor), so a kernel dispatched with a workgroup count must index its rows by
 * wid.x + wid.y · nwg.x: one that reads only global_invocation_id.x skips every row past the first 65,535
 * workgroups on a real GPU (gen_bookkeep did; SwiftShader's limit is the same, so no shape in a test reached it).
 * Only the matmuls take an [x, y] grid of their own and may index by global_invocation_id.
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SHADERS = resolve(__dirname, "../../src/shaders");
/** Kernels whose wrappers dispatch a 2-D grid ([x, y]) they index themselves. */
const GRID_2D = new Set(["matmul.wgsl", "matmul_regtile.wgsl"]);

describe("split dispatches", () => {
  it("every linearly dispatched kernel reads num_workgroups to index rows past a split", () => {
    const files = readdirSync(SHADERS).filter((f) => f.endsWith(".wgsl"));
    expect(files.length).toBeGreaterThan(30);
    const entry = files.filter((f) => /@compute/.test(readFileSync(resolve(SHADERS, f), "utf8")));
    // Declared and used: the row (or group) index adds wid.y times the x count.
    const blind = entry.filter((f) => {
      const text = readFileSync(resolve(SHADERS, f), "utf8");
      return (
        !GRID_2D.has(f) && !(/@builtin\(num_workgroups\)/.test(text) && /wid\.y\s*\*\s*nwg\.x/.test(text))
      );
    });
    expect(blind).toEqual([]);
    for (const f of GRID_2D) expect(entry, f).toContain(f);
  });
});
