/** CPU twin of src/shaders/adamw.wgsl (AdamW with decoupled weight decay and global-norm clipping). Float64. */

/** Hyperparameters of one AdamW step; the wrapper's defaults are in src/kernels/adamw.ts. */
export interface AdamWHyper {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** Clip threshold on the global gradient norm; ≤ 0 disables clipping. */
  maxGradNorm: number;
  /** 1-based step count, for the bias corrections 1 − βᵗ. */
  step: number;
}

/**
 * One AdamW step in place on float64 copies: params, m, v are updated; grads are not modified.
 * g = c·grads with c = min(1, maxGradNorm / (norm + 1e-6)) when maxGradNorm > 0, else 1;
 * m ← β1·m + (1 − β1)·g; v ← β2·v + (1 − β2)·g²; θ ← θ − lr·(m̂/(√v̂ + eps) + wd·decay·θ), m̂ = m/(1 − β1ᵗ),
 * v̂ = v/(1 − β2ᵗ). Source: Loshchilov & Hutter 2019, alg. 2; PyTorch clip_grad_norm_.
 */
export function adamwRef(
  state: { params: Float64Array; m: Float64Array; v: Float64Array },
  grads: ArrayLike<number>,
  decay: ArrayLike<number>,
  norm: number,
  h: AdamWHyper,
): void {
  const { params, m, v } = state;
  const clip = h.maxGradNorm > 0 ? Math.min(1, h.maxGradNorm / (norm + 1e-6)) : 1;
  const bc1 = 1 - h.beta1 ** h.step;
  const bc2 = 1 - h.beta2 ** h.step;
  for (let i = 0; i < params.length; i++) {
    const g = clip * grads[i];
    m[i] = h.beta1 * m[i] + (1 - h.beta1) * g;
    v[i] = h.beta2 * v[i] + (1 - h.beta2) * g * g;
    const mhat = m[i] / bc1;
    const vhat = v[i] / bc2;
    params[i] -= h.lr * (mhat / (Math.sqrt(vhat) + h.eps) + h.weightDecay * decay[i] * params[i]);
  }
}
