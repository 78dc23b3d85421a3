/** Batched next-token sampling (src/shaders/sample.wgsl); CPU twin: src/reference/sample.ts. */
import type { GpuContext } from "../gpu/context";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import source from "../shaders/sample.wgsl?raw";
import { checkWidth, preferredRowWidth, widthFamily } from "./variants";

/** The sample kernel at a given workgroup width (threads per row, a power of two ≤ 256). */
export const sampleKernel = widthFamily({
  name: "sample",
  source,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "storage", "storage"],
});

export interface SampleOptions {
  /** Temperature τ > 0 (finite): tokens ~ softmax(logits / τ). Default 1. */
  temperature?: number;
  /** Keep only the k largest logits (ties → lower index). 0 (default) or ≥ V keeps the whole vocabulary. */
  topK?: number;
  /** Argmax instead of a random draw (same as topK = 1; the temperature still scales `logp`). Default false. */
  greedy?: boolean;
  /** RNG seed, a u32. The draw of row b depends only on (seed, step, b). Default 0. */
  seed?: number;
  /** Step counter, a u32: use a new one per generated position (e.g. the position index). Default 0. */
  step?: number;
  /** Token id written for finished rows, an i32. Default 0. */
  padId?: number;
  /** Threads per row: a power of two ≤ 256. Default `preferredRowWidth(ctx, V)`. */
  width?: number;
}

function checkU32(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
    throw new RangeError(`sample: ${name} must be a u32, got ${v}`);
}

/**
 * Record one sampling step for B sequences:
 *   tokens[b] = a draw from softmax(logits[b] / τ) restricted to its top-k logits (renormalised),
 *   logp[b]   = log softmax(logits[b] / τ)[tokens[b]] over the FULL vocabulary, in nats (≤ 0).
 * `logp` is the log-prob the trainers use (algorithms.md: every log-prob comes from logits / τ); with top-k it
 * is NOT the log-prob of the truncated distribution the token was drawn from.
 * Rows with done[b] ≠ 0 get tokens[b] = padId and logp[b] = 0; `done` is read only (the caller marks EOS).
 *
 * Randomness is counter-based (PCG hash of (seed, step, b), Jarzynski & Olano 2020): reproducible for a seed,
 * independent of dispatch order and batch composition, and drawn bit-identically by the CPU twin. The token is
 * the inverse CDF of that uniform in ascending token order.
 *
 * Shapes: logits [B, V] f32 (V ≥ 1, at least one finite logit per row), done [B] u32, tokens [B] i32, logp [B] f32.
 * @throws RangeError on mismatched shapes or dtypes, τ ≤ 0 or non-finite, topK / seed / step not u32, bad width.
 */
export function sample(
  ctx: GpuContext,
  tokens: Tensor,
  logp: Tensor,
  logits: Tensor,
  done: Tensor,
  opts: SampleOptions = {},
): void {
  const V = logits.shape[logits.shape.length - 1] ?? 0;
  const B = V === 0 ? 0 : logits.size / V;
  if (logits.shape.length !== 2 || V < 1) throw new RangeError(`sample: logits ${logits} must be [B, V≥1]`);
  if (logits.dtype !== "f32") throw new RangeError(`sample: logits ${logits} must be f32`);
  if (done.size !== B || done.dtype !== "u32")
    throw new RangeError(`sample: done ${done} must be [${B}] u32`);
  if (tokens.size !== B || tokens.dtype !== "i32")
    throw new RangeError(`sample: tokens ${tokens} must be [${B}] i32`);
  if (logp.size !== B || logp.dtype !== "f32")
    throw new RangeError(`sample: logp ${logp} must be [${B}] f32`);
  const temperature = opts.temperature ?? 1;
  if (!(temperature > 0) || !Number.isFinite(temperature))
    throw new RangeError(`sample: temperature must be > 0 and finite, got ${temperature}`);
  const topK = opts.greedy ? 1 : (opts.topK ?? 0);
  const seed = opts.seed ?? 0;
  const step = opts.step ?? 0;
  const padId = opts.padId ?? 0;
  checkU32("topK", topK);
  checkU32("seed", seed);
  checkU32("step", step);
  if (!Number.isInteger(padId) || padId < -(2 ** 31) || padId >= 2 ** 31)
    throw new RangeError(`sample: padId must be an i32, got ${padId}`);
  const width = opts.width ?? preferredRowWidth(ctx, V);
  checkWidth("sample", width);
  ctx.dispatch(sampleKernel(width), {
    bindings: [
      params(
        ["u32", B],
        ["u32", V],
        ["u32", topK >= V ? 0 : topK],
        ["u32", seed],
        ["u32", step],
        ["i32", padId],
        ["f32", temperature],
      ),
      logits,
      done,
      tokens,
      logp,
    ],
    workgroups: B,
  });
}
