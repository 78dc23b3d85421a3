/**
 * Fused softmax + cross-entropy for (pre)training at τ = 1 (src/shaders/cross_entropy.wgsl);
 * CPU twin: src/reference/cross_entropy.ts.
 */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/cross_entropy.wgsl?raw";
import {
  checkNoAlias,
  expectTensor,
  logitRows,
  type RowWidthOption,
  rowKernelFamily,
  rowWidth,
} from "./vocab_rows";

const kernel = rowKernelFamily("cross_entropy", source, [
  "uniform",
  "read-only-storage",
  "read-only-storage",
  "storage",
  "storage",
]);

export interface CrossEntropyOptions extends RowWidthOption {
  /** Gradient scale, finite: typically 1 / (number of non-ignored targets) for a mean loss. */
  scale: number;
  /** Add into dlogits instead of overwriting it (ignored rows are then left untouched). Default false. */
  accumulate?: boolean;
}

/**
 * Record, in one kernel, loss[n] = −log softmax(logits[n, :])[targets[n]] (nats, ≥ 0) and
 * dlogits[n, v] = (softmax(logits[n, :])_v − [v = targets[n]])·scale, the gradient of scale·Σ_n loss[n]
 * (llm.c's fused_classifier). τ = 1: this is the pretraining loss, not an RL log-prob. Shapes: logits/dlogits
 * [..., V] (N = B·T rows), targets [N] i32, loss [N]. Targets < 0 are ignored (so are targets ≥ V, which are
 * bugs the GPU cannot report), as are all −∞ rows: 0 loss, 0 gradient, logits not read. dlogits is overwritten
 * unless `accumulate`.
 * @throws RangeError on mismatched sizes or dtypes, a non-finite scale, a bad width, or an output sharing a
 *   buffer with an input (dlogits cannot overwrite logits in place under WebGPU's binding rules).
 */
export function crossEntropy(
  ctx: GpuContext,
  loss: Tensor,
  dlogits: Tensor,
  logits: Tensor,
  targets: Tensor,
  opts: CrossEntropyOptions,
): void {
  const op = "crossEntropy";
  const { N, V } = logitRows(op, logits);
  expectTensor(op, targets, N, "i32", "targets");
  expectTensor(op, loss, N, "f32", "loss");
  expectTensor(op, dlogits, N * V, "f32", "dlogits");
  if (!Number.isFinite(opts.scale)) throw new RangeError(`${op}: scale must be finite, got ${opts.scale}`);
  checkNoAlias(op, [loss, dlogits], [logits, targets]);
  ctx.dispatch(kernel(rowWidth(op, ctx, V, opts.width)), {
    bindings: [params(["u32", N], ["u32", V], ["f32", opts.scale]), logits, targets, loss, dlogits],
    workgroups: N,
    constants: { ACCUMULATE: opts.accumulate ?? false },
  });
}
