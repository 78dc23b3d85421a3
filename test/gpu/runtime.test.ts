import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { gridFor } from "../../src/gpu/context";
import { acquireGpu } from "../../src/gpu/device";
import { GpuDeviceLostError, GpuValidationError, ShaderCompileError } from "../../src/gpu/errors";
import { defineKernel, pipelineLabel } from "../../src/gpu/pipeline";
import { params } from "../../src/gpu/uniforms";
import { elementwise, elementwiseKernel } from "../../src/kernels/elementwise";
import { matmulKernel } from "../../src/kernels/matmul";
import { testGpu } from "../helpers/gpu";

describe("adapter", () => {
  it("reports a real adapter with limits and features", async () => {
    const ctx = await testGpu();
    const a = ctx.adapter;
    console.log(`adapter: ${a.name} software=${a.isSoftware} host=${a.host} timestamps=${ctx.hasTimestamps}`);
    expect(a.host).toBe("node");
    expect(a.name.length).toBeGreaterThan(0);
    expect(a.limits.maxComputeWorkgroupsPerDimension).toBeGreaterThanOrEqual(65535);
    expect(a.limits.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(128 * 1024 * 1024);
    expect(Array.isArray(a.features)).toBe(true);
  });

  it("names the adapter on Chrome 113–126, which has requestAdapterInfo() and no adapter.info", async () => {
    const real = await testGpu();
    const { create } = (await import("webgpu")) as unknown as { create(o: string[]): GPU };
    const gpu = create([]);
    // The same adapter as older Chrome exposed it: `info` undefined, the information behind a promise.
    const older: GPU = {
      ...gpu,
      requestAdapter: async (o?: GPURequestAdapterOptions) => {
        const a = await gpu.requestAdapter(o);
        if (!a) return null;
        return new Proxy(a, {
          get(target, key) {
            if (key === "info") return undefined;
            if (key === "requestAdapterInfo") return async () => target.info;
            const v = Reflect.get(target, key, target);
            return typeof v === "function" ? v.bind(target) : v;
          },
        });
      },
    } as GPU;
    const ctx = await acquireGpu({ gpu: older });
    expect(ctx.adapter.name).toBe(real.adapter.name);
    expect(ctx.adapter.name).not.toBe("unknown adapter");
    expect(ctx.adapter.isSoftware).toBe(real.adapter.isSoftware);
    ctx.device.destroy();
  });
});

describe("Node start-up", () => {
  it("prints no XDG_RUNTIME_DIR error on a headless machine (acquireGpu gives Dawn a private runtime dir)", () => {
    const env = { ...process.env };
    delete env.XDG_RUNTIME_DIR;
    const script =
      'import { acquireGpu } from "./src/gpu/device.ts";' +
      "const ctx = await acquireGpu(); console.log('dir', process.env.XDG_RUNTIME_DIR); ctx.device.destroy();";
    const r = spawnSync("node", ["--import", "tsx", "--input-type=module", "-e", script], {
      env,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/dir \/.*rlhf-playground-runtime-/);
    expect(r.stderr).not.toContain("XDG_RUNTIME_DIR");
  });
});

describe("dispatch grid", () => {
  it("keeps small linear counts 1D and splits large ones over y", () => {
    expect(gridFor(10, 65535)).toEqual([10, 1, 1]);
    expect(gridFor(65535, 65535)).toEqual([65535, 1, 1]);
    expect(gridFor(65536, 65535)).toEqual([65535, 2, 1]);
    expect(gridFor(70000, 65535)).toEqual([65535, 2, 1]);
    expect(() => gridFor([70000, 1, 1], 65535)).toThrow(/exceeds/);
  });
});

describe("pipeline cache", () => {
  it("compiles each specialisation once and labels it with its constants", async () => {
    const ctx = await testGpu();
    const a = ctx.tensor([5], "f32", "a", [1, 2, 3, 4, 5]);
    const out = ctx.tensor([5], "f32", "out");
    const before = ctx.pipelines.compiled;
    for (let i = 0; i < 3; i++) elementwise(ctx, "scale", out, a, null, 2);
    elementwise(ctx, "exp", out, a);
    expect(ctx.pipelines.compiled - before).toBe(2);
    expect(pipelineLabel(elementwiseKernel, { OP: 4 })).toBe("elementwise{OP=4,WG_X=256}");
    const got = await ctx.read(out);
    [1, 2, 3, 4, 5].forEach((x, i) => {
      expect(got[i]).toBeCloseTo(Math.exp(x), 3);
    });
  });

  it("reports a WGSL compile error naming the kernel and the line", async () => {
    const ctx = await testGpu();
    const bad = defineKernel({
      name: "broken_kernel",
      source:
        "override WG_X: u32 = 64u;\n@compute @workgroup_size(WG_X) fn main() { let x: f32 = undefined_thing; }",
      bindings: [],
      workgroupSize: [64],
    });
    const err = await ctx.pipelines.check(bad).catch((e) => e);
    expect(err).toBeInstanceOf(ShaderCompileError);
    expect(String(err.message)).toMatch(/broken_kernel/);
    expect(String(err.message)).toMatch(/2:\d+/);
  });

  it("rejects bindings that do not match the layout, naming the kernel", async () => {
    const ctx = await testGpu();
    const a = ctx.tensor([4]);
    expect(() => ctx.dispatch(elementwiseKernel, { bindings: [a], workgroups: 1 })).toThrow(
      /elementwise takes 4/,
    );
    expect(() => ctx.dispatch(elementwiseKernel, { bindings: [a, a, a, a], workgroups: 1 })).toThrow(
      /uniform/,
    );
  });
});

describe("uniforms", () => {
  it("packs u32, i32 and f32 fields", () => {
    const p = params(["u32", 7], ["i32", -1], ["f32", 0.5]);
    expect(p[0]).toBe(7);
    expect(p[1]).toBe(0xffffffff);
    expect(new Float32Array(p.buffer)[2]).toBe(0.5);
    expect(() => params(["u32", -1])).toThrow(RangeError);
  });

  it("packs i32 extremes and rejects fractional or out-of-range i32 values, naming the field", () => {
    const p = new Int32Array(params(["i32", -(2 ** 31)], ["i32", 2 ** 31 - 1]).buffer);
    expect([...p]).toEqual([-(2 ** 31), 2 ** 31 - 1]);
    expect(() => params(["i32", 3.7])).toThrow(/i32 parameter 0 out of range: 3.7/);
    expect(() => params(["u32", 1], ["i32", 2 ** 31])).toThrow(/i32 parameter 1 out of range/);
    expect(() => params(["i32", -(2 ** 31) - 1])).toThrow(RangeError);
    expect(() => params(["i32", Number.NaN])).toThrow(RangeError);
  });

  it("gives each dispatch of one submission its own parameters", async () => {
    const ctx = await testGpu();
    const a = ctx.tensor([3], "f32", "a", [1, 2, 3]);
    const outs = [1, 2, 3, 4].map((i) => ctx.tensor([3], "f32", `out${i}`));
    outs.forEach((o, i) => {
      elementwise(ctx, "scale", o, a, null, i + 1);
    });
    const got = await Promise.all(outs.map((o) => ctx.read(o)));
    expect(got.map((g) => [...g])).toEqual([1, 2, 3, 4].map((s) => [s, 2 * s, 3 * s]));
  });
});

describe("tensor data", () => {
  it("rejects data whose element count differs from the shape, naming the tensor and both counts", async () => {
    const ctx = await testGpu();
    expect(() => ctx.tensor([4], "f32", "x", [1, 2])).toThrow(/"x" \[4\] has 4 elements; data has 2/);
    expect(() => ctx.tensor([2, 2], "i32", "y", [1, 2, 3, 4, 5])).toThrow(RangeError);
    const t = ctx.tensor([2, 2], "f32", "ok", [1, 2, 3, 4]);
    expect([...(await ctx.read(t))]).toEqual([1, 2, 3, 4]);
  });
});

describe("readback pool", () => {
  it("reads concurrently and reuses staging buffers", async () => {
    const ctx = await testGpu();
    const ts = Array.from({ length: 6 }, (_, i) =>
      ctx.tensor([100], "f32", `t${i}`, new Float32Array(100).fill(i)),
    );
    const first = await Promise.all(ts.map((t) => ctx.read(t)));
    expect(first.map((r) => r[99])).toEqual([0, 1, 2, 3, 4, 5]);
    const created = ctx.readback.created;
    for (let k = 0; k < 5; k++) await ctx.read(ts[k]);
    expect(ctx.readback.created).toBe(created);
    expect(ctx.readback.inFlight).toBe(0);
  });

  it("reads views at an offset and integer dtypes", async () => {
    const ctx = await testGpu();
    const flat = ctx.tensor(
      [128],
      "f32",
      "flat",
      Float32Array.from({ length: 128 }, (_, i) => i),
    );
    const v = flat.view([4], 64, "flat.view");
    expect([...(await ctx.read(v))]).toEqual([64, 65, 66, 67]);
    const ints = ctx.tensor([3], "i32", "ints", [-5, 0, 7]);
    expect([...(await ctx.read(ints))]).toEqual([-5, 0, 7]);
    expect(() => flat.view([4], 126)).toThrow(RangeError);
  });
});

describe("timing", () => {
  it("measures GPU time with timestamp-query where available", async () => {
    const ctx = await testGpu();
    const a = ctx.tensor([1 << 16], "f32", "a");
    const out = ctx.tensor([1 << 16], "f32", "out");
    const t = await ctx.time(() => elementwise(ctx, "exp", out, a));
    console.log(`timing: ${t.ms.toFixed(3)} ms via ${t.source}`);
    expect(t.source).toBe(ctx.hasTimestamps ? "timestamp-query" : "wall-clock");
    expect(t.ms).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(t.ms)).toBe(true);
  });
});

describe("errors", () => {
  it("surfaces an uncaptured validation error on the next read", async () => {
    const ctx = await testGpu();
    const a = ctx.tensor([4], "f32", "a");
    // Binding the same buffer as read-only and writable in one dispatch is a validation error.
    ctx.dispatch(elementwiseKernel, { bindings: [params(["u32", 4], ["f32", 1]), a, a, a], workgroups: 1 });
    const err = await ctx.read(a).catch((e) => e);
    expect(err).toBeInstanceOf(GpuValidationError);
    expect(err.kind).toBe("validation");
    expect(String(err.message)).toMatch(/"a"/);
    // The context stays usable afterwards.
    const b = ctx.tensor([2], "f32", "b", [3, 4]);
    expect([...(await ctx.read(b))]).toEqual([3, 4]);
  });

  it("names the kernel when its parameters do not fit its layout", async () => {
    const ctx = await testGpu();
    const m = ctx.tensor([4], "f32", "m");
    // matmul's Params struct is 24 bytes; 8 bytes of parameters bind a 16-byte block: too small.
    ctx.dispatch(matmulKernel, {
      bindings: [params(["u32", 2], ["u32", 2]), m, m, m, ctx.tensor([4])],
      workgroups: 1,
    });
    const err = await ctx.read(m).catch((e) => e);
    expect(err).toBeInstanceOf(GpuValidationError);
    expect(String(err.message)).toMatch(/matmul\{/);
  });

  it("turns device loss into a typed error for pending and later calls", async () => {
    const ctx = await acquireGpu();
    const seen: unknown[] = [];
    ctx.onError((e) => seen.push(e));
    const a = ctx.tensor([1024], "f32", "a");
    const pending = ctx.read(a);
    ctx.device.destroy();
    const lost = await ctx.lost;
    expect(lost).toBeInstanceOf(GpuDeviceLostError);
    expect(lost.reason).toBe("destroyed");
    await pending.then(
      () => undefined, // the read may have completed before the loss
      (e) => expect(e).toBeInstanceOf(GpuDeviceLostError),
    );
    expect(() => ctx.tensor([1])).toThrow(GpuDeviceLostError);
    await expect(ctx.read(a)).rejects.toBeInstanceOf(GpuDeviceLostError);
    expect(seen.some((e) => e instanceof GpuDeviceLostError)).toBe(true);
  });
});

describe("a failed read and a late device loss", () => {
  it("a map failing as a destroyed device's do waits for the loss (seen > 2 s late); another error does not", async () => {
    const ctx = await acquireGpu();
    const a = ctx.tensor([4], "f32", "a");
    const readback = (ctx as unknown as { readback: { take: () => Promise<ArrayBuffer> } }).readback;
    const take = readback.take;
    readback.take = () => Promise.reject(new Error("boom"));
    const t0 = performance.now();
    await expect(ctx.read(a)).rejects.toThrow("boom"); // not a loss: its own error, after the short wait
    expect(performance.now() - t0).toBeLessThan(10_000);
    readback.take = () =>
      Promise.reject(
        new Error(
          "Failed to execute 'mapAsync' on 'GPUBuffer': Buffer was unmapped before mapping was resolved.",
        ),
      );
    setTimeout(() => ctx.device.destroy(), 3000); // device.lost comes 3 s after the failed map
    await expect(ctx.read(a)).rejects.toBeInstanceOf(GpuDeviceLostError);
    readback.take = take;
  }, 30_000);
});

describe("upload ordering", () => {
  it("keeps uploads in order with recorded dispatches", async () => {
    const ctx = await testGpu();
    const src = ctx.tensor([2], "f32", "src");
    const outs = [0, 1, 2].map((i) => ctx.tensor([2], "f32", `out${i}`));
    for (let i = 0; i < 3; i++) {
      ctx.upload(src, [i, 10 * i]);
      elementwise(ctx, "copy", outs[i], src);
    }
    const got = await Promise.all(outs.map((o) => ctx.read(o)));
    expect(got.map((g) => [...g])).toEqual([
      [0, 0],
      [1, 10],
      [2, 20],
    ]);
  });
});
