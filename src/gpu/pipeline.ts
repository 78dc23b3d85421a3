/**
 * Kernels and the pipeline cache. A kernel is data: a name, its WGSL source, its binding layout and its
 * workgroup size. The workgroup size is written once, here, and reaches the shader as override constants
 * WG_X/WG_Y/WG_Z (the shader declares `override WG_X: u32;` and `@workgroup_size(WG_X, ...)`), so shader and
 * dispatch can never disagree. Every specialisation (override constants) gets its own pipeline, compiled
 * once, cached by its source and a key covering all of them, and labelled so that a validation error names the
 * kernel.
 */
import { ShaderCompileError } from "./errors";

/** How a kernel sees each binding of group 0, in binding order. */
export type BindingKind = "uniform" | "storage" | "read-only-storage";

/** Override-constant values of one specialisation. Booleans become 0/1. */
export type Constants = Readonly<Record<string, number | boolean>>;

export interface KernelSpec {
  /**
   * Human-readable name, e.g. "matmul"; the prefix of every pipeline label, so keep it unique (test/code/
   * kernel_conformance.test.ts checks the wrappers'). The cache keys by source too: two kernels that share a
   * name still each run their own shader.
   */
  readonly name: string;
  /** WGSL source, imported with `?raw` from src/shaders/. */
  readonly source: string;
  /**
   * Where line `line` (1-based) of `source` was written, e.g. "softmax.wgsl:42" for a source pasted together from
   * several files; compile errors name it instead of the bare line number. Default: the line number.
   */
  readonly lineOrigin?: (line: number) => string;
  /** Entry point, default "main". */
  readonly entryPoint?: string;
  /** Binding kinds of @group(0), @binding(0..n-1). */
  readonly bindings: readonly BindingKind[];
  /** Workgroup size [x, y?, z?]; passed to the shader as WG_X, WG_Y, WG_Z. */
  readonly workgroupSize: readonly [number, number?, number?];
}

/** A kernel as the runtime uses it: the spec plus its derived override constants. */
export interface Kernel extends KernelSpec {
  readonly workgroupConstants: Constants;
  /** Invocations per workgroup (x·y·z). */
  readonly invocations: number;
}

/**
 * Validate a spec and derive what the runtime needs. Kernels are defined once, at module load. Only the workgroup
 * size is checked here; WGSL errors surface at first use or through {@link PipelineCache.check}.
 * @throws RangeError naming the kernel if a workgroup dimension is not an integer ≥ 1.
 */
export function defineKernel(spec: KernelSpec): Kernel {
  const [x, y = 1, z = 1] = spec.workgroupSize;
  for (const d of [x, y, z])
    if (!Number.isInteger(d) || d < 1)
      throw new RangeError(`kernel ${spec.name}: bad workgroup size ${spec.workgroupSize}`);
  const workgroupConstants: Record<string, number> = { WG_X: x };
  if (spec.workgroupSize.length > 1) workgroupConstants.WG_Y = y;
  if (spec.workgroupSize.length > 2) workgroupConstants.WG_Z = z;
  return { ...spec, workgroupConstants, invocations: x * y * z };
}

function normaliseConstants(c: Constants): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(c).sort()) out[k] = typeof c[k] === "boolean" ? Number(c[k]) : (c[k] as number);
  return out;
}

/** Cache key and label of a specialisation: `name{K=v,...}`. */
export function pipelineLabel(kernel: Kernel, constants: Constants = {}): string {
  const all = normaliseConstants({ ...constants, ...kernel.workgroupConstants });
  const body = Object.entries(all)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
  return `${kernel.name}{${body}}`;
}

interface Entry {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

/**
 * Compiles each specialisation once. Synchronous creation keeps dispatch recording free of awaits. Shader modules
 * are keyed by source and pipelines by source, then label and entry point, so a kernel that reuses another's
 * name (a copied wrapper not renamed) still runs its own shader.
 */
export class PipelineCache {
  /** source → `label@entryPoint` → pipeline. */
  private readonly pipelines = new Map<string, Map<string, Entry>>();
  private readonly modules = new Map<string, GPUShaderModule>();
  private readonly layouts = new Map<string, GPUBindGroupLayout>();
  /** Number of pipelines compiled so far (the tests check that repeated dispatches compile once). */
  compiled = 0;

  constructor(private readonly device: GPUDevice) {}

  /** Pipelines held. */
  get size(): number {
    let n = 0;
    for (const m of this.pipelines.values()) n += m.size;
    return n;
  }

  private module(kernel: Kernel): GPUShaderModule {
    let m = this.modules.get(kernel.source);
    if (!m) {
      m = this.device.createShaderModule({ label: kernel.name, code: kernel.source });
      this.modules.set(kernel.source, m);
    }
    return m;
  }

  /** The pipelines of `kernel`'s source, by `label@entryPoint`. */
  private bySource(kernel: Kernel): Map<string, Entry> {
    let m = this.pipelines.get(kernel.source);
    if (!m) {
      m = new Map();
      this.pipelines.set(kernel.source, m);
    }
    return m;
  }

  private layout(kernel: Kernel): GPUBindGroupLayout {
    const key = kernel.bindings.join(",");
    let l = this.layouts.get(key);
    if (!l) {
      l = this.device.createBindGroupLayout({
        label: `layout(${key})`,
        entries: kernel.bindings.map((type, binding) => ({
          binding,
          visibility: GPUShaderStage.COMPUTE,
          // Uniform parameters bind at a dynamic offset into the uniform arena, so one bind group serves every
          // dispatch over the same tensors (bind_groups.ts).
          buffer: type === "uniform" ? { type, hasDynamicOffset: true } : { type },
        })),
      });
      this.layouts.set(key, l);
    }
    return l;
  }

  /** The pipeline for `kernel` specialised by `constants` (compiled on first use). */
  get(kernel: Kernel, constants: Constants = {}): Entry {
    const label = pipelineLabel(kernel, constants);
    const entryPoint = kernel.entryPoint ?? "main";
    const cached = this.bySource(kernel);
    let e = cached.get(`${label}@${entryPoint}`);
    if (!e) {
      const layout = this.layout(kernel);
      const pipeline = this.device.createComputePipeline({
        label,
        layout: this.device.createPipelineLayout({ label, bindGroupLayouts: [layout] }),
        compute: {
          module: this.module(kernel),
          entryPoint,
          constants: normaliseConstants({ ...constants, ...kernel.workgroupConstants }),
        },
      });
      e = { pipeline, layout };
      cached.set(`${label}@${entryPoint}`, e);
      this.compiled++;
    }
    return e;
  }

  /**
   * Compile `kernel` and report WGSL errors with line numbers (used by tests and the self-test).
   * @throws {ShaderCompileError} naming the kernel, with each compiler message as `line:col message` (the line as
   *   the kernel's `lineOrigin` names it, e.g. `softmax.wgsl:42:7 message`).
   */
  async check(kernel: Kernel, constants: Constants = {}): Promise<void> {
    this.device.pushErrorScope("validation");
    const info = await this.module(kernel).getCompilationInfo();
    const errors = info.messages.filter((m) => m.type === "error");
    if (!errors.length) this.get(kernel, constants);
    const err = await this.device.popErrorScope();
    if (errors.length || err) {
      this.modules.delete(kernel.source);
      this.pipelines
        .get(kernel.source)
        ?.delete(`${pipelineLabel(kernel, constants)}@${kernel.entryPoint ?? "main"}`);
      const detail = errors.length
        ? errors
            .map((m) => `${kernel.lineOrigin?.(m.lineNum) ?? m.lineNum}:${m.linePos} ${m.message}`)
            .join("\n")
        : err?.message;
      throw new ShaderCompileError(kernel.name, detail ?? "unknown error");
    }
  }
}
