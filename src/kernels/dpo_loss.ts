/**
 * DPO-family preference losses on the GPU (src/shaders/dpo_loss.wgsl): per pair, the gradient w.r.t. each
 * sequence log-prob (to spread over tokens with sequenceLogprobBackward) and TRL's metric terms, reduced to a
 * few sums on the GPU. CPU twins: src/reference/dpo_loss.ts per pair, over src/algorithms/math/dpo.ts
 * dpoLossAndGrad (the loss, gradients and metrics).
 *
 * Layout (TRL's concatenated batch): per-sequence tensors [2B], the B chosen completions first, then the B
 * rejected ones in the same pair order, as sequenceLogprob gives them from a [2B, T] token batch.
 */
import { DPO_DEFAULTS, type DpoOptions } from "../algorithms/math/dpo";
import { checkNumber } from "../algorithms/math/numerics";
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import { DPO_LOSS_TYPES, DPO_TERMS } from "../reference/dpo_loss";
import source from "../shaders/dpo_loss.wgsl?raw";
import { reduceRows } from "./reduce";
import { checkNoAlias, expectTensor } from "./vocab_rows";

export { DPO_TERMS };

/** Number of per-pair metric rows (terms is [DPO_TERM_COUNT, B], sums [DPO_TERM_COUNT]). */
export const DPO_TERM_COUNT = DPO_TERMS.length;

const kernel = defineKernel({
  name: "dpo_loss",
  source,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "read-only-storage", "storage", "storage"],
  workgroupSize: [64],
});

/** Per-sequence inputs, f32 [2B] (chosen 0..B−1, rejected B..2B−1). */
export interface DpoLossInputs {
  /** logπ_θ(y|x): sums of the completions' token log-probs at τ (sequenceLogprob), nats. */
  logps: Tensor;
  /** logπ_ref(y|x), precomputed; required except for simpo (not read there). */
  refLogps?: Tensor | null;
  /** |y| counted tokens (sequenceLogprob's lengths); required for ipo and simpo (not read otherwise). */
  lengths?: Tensor | null;
}

/** Outputs. */
export interface DpoLossOutputs {
  /** dL/dlogπ_θ(y|x) [2B] f32 for L the mean loss over the B pairs (1/B and, for ipo/simpo, 1/|y| included). */
  grad: Tensor;
  /** Per-pair metric rows [DPO_TERM_COUNT, B] f32 (DPO_TERMS). */
  terms: Tensor;
  /** Row sums of terms [DPO_TERM_COUNT] f32; omitted: not reduced. Read back, then {@link dpoLossMetrics}. */
  sums?: Tensor | null;
}

/**
 * Record the DPO-family loss of each pair (../shared/docs/algorithms.md, "DPO family"; exactly dpoLossAndGrad): with
 * h = [logπ_θ(y_w) − logπ_ref(y_w)] − [logπ_θ(y_l) − logπ_ref(y_l)], `sigmoid` −(1 − ε_ls) log σ(βh) −
 * ε_ls log σ(−βh), `hinge` max(0, 1 − βh), `ipo` (h − 1/(2β))² on per-token averages, `simpo`
 * −log σ(β·logπ_θ(y_w)/|y_w| − β·logπ_θ(y_l)/|y_l| − γ); its gradient w.r.t. every sequence log-prob, and
 * the metric rows; then, when `sums` is given, their sums (one reduceRows dispatch). Pass `grad` to
 * sequenceLogprobBackward (sum mode) for the per-token gradient. A pair the math rejects (NaN or +∞ log-prob,
 * length < 1, infinite or undefined loss) gets 0 gradient and counts as `invalid`; dpoLossMetrics then throws.
 * @param opts as dpoLossAndGrad: lossType (default sigmoid), β (0.1; 2 for simpo), labelSmoothing (0,
 *   sigmoid only), simpoGamma (0.5).
 * @throws RangeError on sizes or dtypes (logps [2B], B ≥ 1), missing refLogps/lengths for the loss type,
 *   outputs sharing a buffer with an input or each other, or an option out of range (as dpoLossAndGrad).
 */
export function dpoLoss(ctx: GpuContext, out: DpoLossOutputs, x: DpoLossInputs, opts: DpoOptions = {}): void {
  const op = "dpoLoss";
  const lossType = opts.lossType ?? DPO_DEFAULTS.lossType;
  const loss = DPO_LOSS_TYPES.indexOf(lossType);
  if (loss < 0) throw new RangeError(`${op}: unknown loss_type ${String(lossType)}`);
  const beta = opts.beta ?? (lossType === "simpo" ? DPO_DEFAULTS.simpoBeta : DPO_DEFAULTS.beta);
  const ls = opts.labelSmoothing ?? DPO_DEFAULTS.labelSmoothing;
  const gamma = opts.simpoGamma ?? DPO_DEFAULTS.simpoGamma;
  checkNumber("beta", beta, 0, true);
  checkNumber("simpoGamma", gamma, 0);
  if (!(ls >= 0 && ls < 0.5)) throw new RangeError(`labelSmoothing must be in [0, 0.5), got ${ls}`);
  if (ls > 0 && lossType !== "sigmoid")
    throw new RangeError(`labelSmoothing applies to loss_type sigmoid only, got ${lossType}`);
  const S = x.logps.size;
  if (S < 2 || S % 2 !== 0)
    throw new RangeError(`${op}: logps must hold 2B values (chosen, then rejected), B ≥ 1; got ${S}`);
  const B = S / 2;
  const refLogps = lossType === "simpo" ? null : (x.refLogps ?? null);
  const lengths = lossType === "ipo" || lossType === "simpo" ? (x.lengths ?? null) : null;
  if (lossType !== "simpo" && !refLogps) throw new RangeError(`${op}: loss_type ${lossType} needs refLogps`);
  if ((lossType === "ipo" || lossType === "simpo") && !lengths)
    throw new RangeError(`${op}: loss_type ${lossType} needs lengths`);
  expectTensor(op, x.logps, S, "f32", "logps");
  if (refLogps) expectTensor(op, refLogps, S, "f32", "refLogps");
  if (lengths) expectTensor(op, lengths, S, "f32", "lengths");
  expectTensor(op, out.grad, S, "f32", "grad");
  expectTensor(op, out.terms, DPO_TERM_COUNT * B, "f32", "terms");
  if (out.sums) expectTensor(op, out.sums, DPO_TERM_COUNT, "f32", "sums");
  checkNoAlias(op, [out.grad, out.terms], [x.logps, refLogps, lengths]);
  checkNoAlias(op, [out.grad], [out.terms]);
  ctx.dispatch(kernel, {
    bindings: [
      params(["u32", B], ["f32", beta], ["f32", ls], ["f32", gamma]),
      x.logps,
      refLogps ?? x.logps, // unread placeholders
      lengths ?? x.logps,
      out.grad,
      out.terms,
    ],
    workgroups: Math.ceil(B / kernel.invocations),
    constants: { LOSS: loss },
  });
  if (out.sums) reduceRows(ctx, "sum", out.sums, out.terms.reshape([DPO_TERM_COUNT, B]));
}

/** Loss and TRL's metrics (means over pairs), as dpoLossAndGrad names them. */
export interface DpoLossMetrics {
  loss: number;
  metrics: {
    "rewards/chosen": number;
    "rewards/rejected": number;
    "rewards/margins": number;
    "rewards/accuracies": number;
    "logps/chosen": number;
    "logps/rejected": number;
  };
}

/**
 * Turn the `sums` of {@link dpoLoss} (read back, [DPO_TERM_COUNT]) for B pairs into the mean loss and metrics.
 * @throws RangeError on a wrong length, B < 1, or invalid pairs (the message says what makes a pair invalid).
 */
export function dpoLossMetrics(sums: ArrayLike<number>, B: number): DpoLossMetrics {
  if (sums.length !== DPO_TERM_COUNT)
    throw new RangeError(`dpoLossMetrics: expected ${DPO_TERM_COUNT} sums, got ${sums.length}`);
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`dpoLossMetrics: B must be ≥ 1, got ${B}`);
  const s = (name: (typeof DPO_TERMS)[number]) => sums[DPO_TERMS.indexOf(name)];
  if (s("invalid") !== 0)
    throw new RangeError(
      `dpoLoss: ${s("invalid")} of ${B} pair(s) had an infinite or undefined loss (a completion of probability ` +
        "0 under the policy or the reference, a NaN log-prob, or a length < 1); their gradient was set to 0",
    );
  const rc = s("rewards_chosen") / B;
  const rr = s("rewards_rejected") / B;
  return {
    loss: s("loss") / B,
    metrics: {
      "rewards/chosen": rc,
      "rewards/rejected": rr,
      "rewards/margins": rc - rr,
      "rewards/accuracies": s("accuracy") / B,
      "logps/chosen": s("logps_chosen") / B,
      "logps/rejected": s("logps_rejected") / B,
    },
  };
}
