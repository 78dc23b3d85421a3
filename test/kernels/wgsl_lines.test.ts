/**
 * Compile errors of a shader with `// #include`s name the line where it was written (wgsl_lib.ts' line map,
 * PipelineCache.check): `<name>.wgsl:LINE` in the shader, `lib/<piece>.wgsl:LINE` inside a piece, not the line
 * of the pasted-together source.
 */
import { describe, expect, it } from "vitest";
import { ShaderCompileError } from "../../src/gpu/errors";
import { defineKernel } from "../../src/gpu/pipeline";
import { rowKernelFamily } from "../../src/kernels/vocab_rows";
import { linkWgslMapped } from "../../src/kernels/wgsl_lib";
import { kernelGpu } from "../helpers/gpu";

const PIECE = "// a piece\nfn two() -> f32 {\n  return 2.0;\n}\n";
const BROKEN_PIECE = "// a broken piece\nfn two() -> f32 {\n  return no_such_name;\n}\n";
/** Line 6 uses an undeclared name, after a 4-line include was pasted in at line 2. */
const SHADER = [
  "// broken on purpose",
  "// #include p (fn two)",
  "override WG_X: u32 = 1u;",
  "@group(0) @binding(0) var<storage, read_write> out: array<f32>;",
  "@compute @workgroup_size(WG_X) fn main() {",
  "  out[0] = two() + missing_value;",
  "}",
].join("\n");

async function compileError(file: string, lib: Record<string, string>): Promise<string> {
  const { code, origin } = linkWgslMapped(file, SHADER, lib);
  const k = defineKernel({
    name: "t",
    source: code,
    lineOrigin: origin,
    bindings: ["storage"],
    workgroupSize: [1],
  });
  const ctx = await kernelGpu();
  const e = await ctx.pipelines.check(k).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ShaderCompileError);
  return (e as Error).message;
}

describe("WGSL line map", () => {
  it("maps each linked line to the shader's file or the piece's", () => {
    const { code, origin } = linkWgslMapped("s.wgsl", SHADER, { p: PIECE });
    const lines = code.split("\n");
    expect(lines[8]).toBe("  out[0] = two() + missing_value;"); // linked line 9
    expect(origin(9)).toBe("s.wgsl:6");
    expect(origin(1)).toBe("s.wgsl:1");
    expect([2, 3, 4, 5].map(origin)).toEqual([1, 2, 3, 4].map((l) => `lib/p.wgsl:${l}`));
    expect(origin(6)).toBe("s.wgsl:3");
  });

  it("names the shader's own line in a compile error", async () => {
    const msg = await compileError("broken.wgsl", { p: PIECE });
    expect(msg).toMatch(/^broken\.wgsl:6:\d+ .*missing_value/m);
  });

  it("names the piece's line for an error inside an include", async () => {
    const msg = await compileError("broken.wgsl", { p: BROKEN_PIECE });
    expect(msg).toMatch(/^lib\/p\.wgsl:3:\d+ .*no_such_name/m);
  });

  it("is what rowKernelFamily's kernels carry (the real pieces)", () => {
    const k = rowKernelFamily("broken", "// x\n// #include reduce_vec2\nfn main() {}", ["storage"])(1);
    expect(k.lineOrigin?.(1)).toBe("broken.wgsl:1");
    expect(k.lineOrigin?.(2)).toBe("lib/reduce_vec2.wgsl:1");
    expect(k.lineOrigin?.(k.source.split("\n").length)).toBe("broken.wgsl:3");
  });
});
