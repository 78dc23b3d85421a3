/** Row softmax / log-softmax at temperature τ (src/shaders/softmax.wgsl); CPU twin: src/reference/softmax.ts. */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/softmax.wgsl?raw";
import {
  checkNoAlias,
  checkTemperature,
  expectTensor,
  logitRows,
  type RowWidthOption,
  rowKernelFamily,
  rowWidth,
} from "./vocab_rows";

const kernel = rowKernelFamily("softmax", source, ["uniform", "read-only-storage", "storage"]);

export interface SoftmaxOptions extends RowWidthOption {
  /** Temperature τ > 0 (required: every distribution of the lab is softmax(logits / τ)). */
  tau: number;
  /** Write log-softmax instead of softmax. Default false. */
  log?: boolean;
}

/**
 * Record out[n, :] = softmax(logits[n, :] / τ), or log_softmax with `log: true`, for logits [..., V]
 * (N = all leading dims, e.g. B·T). Max-shifted: [v, v] gives −ln 2 for any finite v; a row of all −∞ gives
 * zeros. Logits must be finite or −∞. Source: ../shared/docs/algorithms.md, "Notation" (temperature rule).
 * @throws RangeError if out's size differs from logits', V < 1, τ is not finite > 0, the width is not a power
 *   of two in [1, 256], or out shares a buffer with logits.
 */
export function softmax(ctx: GpuContext, out: Tensor, logits: Tensor, opts: SoftmaxOptions): void {
  const op = "softmax";
  const { N, V } = logitRows(op, logits);
  expectTensor(op, out, N * V, "f32", "out");
  checkTemperature(op, opts.tau);
  checkNoAlias(op, [out], [logits]);
  ctx.dispatch(kernel(rowWidth(op, ctx, V, opts.width)), {
    bindings: [params(["u32", N], ["u32", V], ["f32", opts.tau]), logits, out],
    workgroups: N,
    constants: { LOG: opts.log ?? false },
  });
}
