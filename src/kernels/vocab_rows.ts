/**
 * Shared plumbing of the vocabulary-row kernels (softmax, token_logprob, entropy, exact_kl, cross_entropy):
 * one workgroup per row of logits [N, V] with `width` threads (see variants.ts), one compiled kernel per
 * width, and the argument checks their wrappers share (all throw RangeError with the op's name).
 */
import type { GpuContext } from "../gpu/context";
import type { BindingKind, Kernel } from "../gpu/pipeline";
import type { DType, Tensor } from "../gpu/tensor";
import { checkWidth, preferredRowWidth, widthFamily } from "./variants";
import { linkWgslMapped } from "./wgsl_lib";

/** Options every vocabulary-row wrapper takes. */
export interface RowWidthOption {
  /** Threads per row: a power of two in [1, 256]. Default `preferredRowWidth(ctx, V)`. */
  width?: number;
}

/**
 * A row kernel defined lazily once per workgroup width (each width is its own pipeline). Its source's
 * `// #include` lines are resolved first (wgsl_lib.ts: the shared workgroup reductions), and its compile errors
 * name the line where it was written (`<name>.wgsl:LINE`, or `lib/<piece>.wgsl:LINE` inside an include).
 */
export function rowKernelFamily(
  name: string,
  source: string,
  bindings: readonly BindingKind[],
): (width: number) => Kernel {
  const { code, origin } = linkWgslMapped(`${name}.wgsl`, source);
  return widthFamily({ name, source: code, lineOrigin: origin, bindings });
}

/** The workgroup width to use: `width` if given (checked), else the adapter's preference for V columns. */
export function rowWidth(op: string, ctx: GpuContext, V: number, width: number | undefined): number {
  if (width === undefined) return preferredRowWidth(ctx, V);
  checkWidth(op, width);
  return width;
}

/** N (rows) and V (last dimension) of logits [..., V]. @throws RangeError for V < 1 or a non-f32 tensor. */
export function logitRows(op: string, logits: Tensor, name = "logits"): { N: number; V: number } {
  const V = logits.shape[logits.shape.length - 1] ?? 0;
  if (logits.shape.length < 1 || V < 1)
    throw new RangeError(`${op}: ${name} must have shape [..., V] with V ≥ 1, got [${logits.shape}]`);
  expectDtype(op, logits, "f32", name);
  return { N: logits.size / V, V };
}

/** @throws RangeError unless `t` holds `size` elements of `dtype`. */
export function expectTensor(op: string, t: Tensor, size: number, dtype: DType, name: string): void {
  if (t.size !== size) throw new RangeError(`${op}: ${name} ${t} must hold ${size} elements`);
  expectDtype(op, t, dtype, name);
}

function expectDtype(op: string, t: Tensor, dtype: DType, name: string): void {
  if (t.dtype !== dtype) throw new RangeError(`${op}: ${name} ${t} must be ${dtype}`);
}

/** @throws RangeError unless τ is finite and > 0 (the temperature every log-prob uses; no default on purpose). */
export function checkTemperature(op: string, tau: number): void {
  if (!(tau > 0) || !Number.isFinite(tau))
    throw new RangeError(`${op}: temperature tau must be finite and > 0, got ${tau}`);
}

/**
 * @throws RangeError when an output shares a GPU buffer with an input: WebGPU forbids binding one buffer as
 *   writable and read-only storage in the same dispatch (even disjoint views).
 */
export function checkNoAlias(
  op: string,
  outputs: readonly Tensor[],
  inputs: readonly (Tensor | null)[],
): void {
  for (const o of outputs)
    for (const i of inputs)
      if (i && o.buffer === i.buffer)
        throw new RangeError(`${op}: output ${o} shares a GPU buffer with input ${i}; use separate buffers`);
}
