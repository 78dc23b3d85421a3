// AdamW step over the flat parameter buffer, with global-norm gradient clipping read on the GPU.
// Shapes (all [P], the flat parameter count): params, m, v (updated in place), grads (read only, not modified),
//   decay (f32 per-parameter weight-decay multiplier: 1 = decay, 0 = none, e.g. LayerNorm gains and biases);
//   norm [1] = ‖grads‖₂ from grad_norm.wgsl (read only when max_norm > 0).
// Equations (Loshchilov & Hutter 2019, "Decoupled Weight Decay Regularization", alg. 2; clipping as PyTorch
//   clip_grad_norm_):  c = min(1, max_norm / (norm + 1e-6)) if max_norm > 0 else 1;  g = c·grads[i];
//   m = β1·m + (1 − β1)·g;  v = β2·v + (1 − β2)·g²;  m̂ = m / (1 − β1ᵗ);  v̂ = v / (1 − β2ᵗ);
//   θ ← θ − lr·(m̂ / (√v̂ + eps) + wd·decay[i]·θ)   (θ on the right is the value before the step).
//   The bias corrections bc1 = 1 − β1ᵗ, bc2 = 1 − β2ᵗ arrive precomputed (float64 on the CPU, then f32).
// Workgroup: WG_X threads, one parameter each. Grid: ceil(P / WG_X) workgroups, linear id over a 2D grid,
//   bounds-checked.
// CPU twin: src/reference/adamw.ts.

override WG_X: u32 = 256u;

struct Params {
  n: u32,
  lr: f32,
  beta1: f32,
  beta2: f32,
  eps: f32,
  weight_decay: f32,
  bc1: f32,
  bc2: f32,
  max_norm: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> grads: array<f32>;
@group(0) @binding(2) var<storage, read> decay: array<f32>;
@group(0) @binding(3) var<storage, read> norm: array<f32>;
@group(0) @binding(4) var<storage, read_write> params: array<f32>;
@group(0) @binding(5) var<storage, read_write> m: array<f32>;
@group(0) @binding(6) var<storage, read_write> v: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  var clip = 1.0;
  if (p.max_norm > 0.0) { clip = min(1.0, p.max_norm / (norm[0] + 1e-6)); }
  let g = clip * grads[i];
  let mi = p.beta1 * m[i] + (1.0 - p.beta1) * g;
  let vi = p.beta2 * v[i] + (1.0 - p.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  let mhat = mi / p.bc1;
  let vhat = vi / p.bc2;
  let theta = params[i];
  params[i] = theta - p.lr * (mhat / (sqrt(vhat) + p.eps) + p.weight_decay * decay[i] * theta);
}
