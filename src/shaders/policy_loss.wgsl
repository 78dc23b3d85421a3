// Clipped policy-gradient loss per token (PPO, GRPO, DAPO, Dr. GRPO) and its gradient w.r.t. logπ_θ.
// For each counted token n (mask[n] ≠ 0), with ρ = exp(logp[n] − logp_old[n]), A = adv[n], w the token's
// aggregation weight and ℓr = logp_ref[n] − logp[n]:
//   ℓ_n      = −min(ρA, clamp(ρ, 1 − ε, 1 + ε_high)·A) + β·k3,   k3 = (e^ℓr − 1) − ℓr
//   dlogp[n] = w·(−[clip does not bind]·ρA − β·(e^ℓr − 1))
// The clip binds when A > 0 and ρ > 1 + ε_high, or A < 0 and ρ < 1 − ε (then the token has no surrogate
// gradient). Per-token metric rows terms[k·N + n] (order: POLICY_TERMS in src/reference/policy_loss.ts):
//   0 w·ℓ, 1 count, 2 ρ, 3 ½(log ρ)², 4 [ρ < 1 − ε or ρ > 1 + ε_high], 5 [binds, A < 0], 6 [binds, A > 0],
//   7 k3, 8 invalid (a counted input or result not finite: then rows 0, 2–7 and dlogp are 0).
// Masked slots (mask 0) write 0 everywhere and read no other input (NaN there never leaks).
// use_old = 0: ρ ≡ 1 (logp_old not read). use_ref = 0: k3 = 0 (logp_ref not read; the wrapper then needs
// β = 0). use_weights = 0: w = p.weight for every counted token (weights not read).
// k3 and e^ℓr − 1 use a Taylor polynomial for |ℓr| < 0.5 (no cancellation near ℓr = 0).
// Shapes: logp, logp_old, logp_ref, adv, weights, mask, dlogp [N] (N = B·T, flat); terms [9, N].
// Workgroup: WG_X threads, one token each; linear workgroup id wid.x + wid.y·nwg.x (N may exceed 65535·WG_X).
// Source: Schulman et al. 2017, "Proximal Policy Optimization Algorithms", eq. 7; Shao et al. 2024,
// "DeepSeekMath", eq. 3 (k3 term); Yu et al. 2025, "DAPO" (ε_high); ../shared/docs/algorithms.md, "PPO" step 4,
// "GRPO". CPU twin: src/reference/policy_loss.ts (policyLossRef).

override WG_X: u32 = 64u;

const T_LOSS = 0u;
const T_COUNT = 1u;
const T_RATIO = 2u;
const T_APPROX_KL = 3u;
const T_CLIPPED = 4u;
const T_CLIP_LOW = 5u;
const T_CLIP_HIGH = 6u;
const T_K3 = 7u;
const T_INVALID = 8u;
const K = 9u;

struct Params {
  n: u32,
  eps_low: f32,
  eps_high: f32,
  beta: f32,
  weight: f32,
  use_old: u32,
  use_ref: u32,
  use_weights: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logp: array<f32>;
@group(0) @binding(2) var<storage, read> logp_old: array<f32>;
@group(0) @binding(3) var<storage, read> logp_ref: array<f32>;
@group(0) @binding(4) var<storage, read> adv: array<f32>;
@group(0) @binding(5) var<storage, read> weights: array<f32>;
@group(0) @binding(6) var<storage, read> mask: array<f32>;
@group(0) @binding(7) var<storage, read_write> dlogp: array<f32>;
@group(0) @binding(8) var<storage, read_write> terms: array<f32>;

// Exponent bits all ones: ±∞ or NaN. Bit test, since WGSL lets compilers assume x == x.
fn is_finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

// e^x − 1 − x, accurate near 0: Taylor to x⁸/8! for |x| < 0.5 (truncation < 5e-8 relative), else direct.
fn expm1_minus_x(x: f32) -> f32 {
  if (abs(x) < 0.5) {
    let q = 1.0 / 120.0 + x * (1.0 / 720.0 + x * (1.0 / 5040.0 + x * (1.0 / 40320.0)));
    return x * x * (0.5 + x * (1.0 / 6.0 + x * (1.0 / 24.0 + x * q)));
  }
  return exp(x) - 1.0 - x;
}

fn put(k: u32, i: u32, v: f32) {
  terms[k * p.n + i] = v;
}

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  for (var k = 0u; k < K; k++) { put(k, i, 0.0); }
  dlogp[i] = 0.0;
  if (mask[i] == 0.0) { return; }
  put(T_COUNT, i, 1.0);

  let lp = logp[i];
  let a = adv[i];
  var w = p.weight;
  if (p.use_weights != 0u) { w = weights[i]; }
  var ok = is_finite(lp) && is_finite(a) && is_finite(w);
  var log_ratio = 0.0;
  if (p.use_old != 0u) {
    let old = logp_old[i];
    ok = ok && is_finite(old);
    log_ratio = lp - old;
  }
  let ratio = exp(log_ratio);
  let binds = (a > 0.0 && ratio > 1.0 + p.eps_high) || (a < 0.0 && ratio < 1.0 - p.eps_low);
  let clipped = clamp(ratio, 1.0 - p.eps_low, 1.0 + p.eps_high);
  var loss = -min(ratio * a, clipped * a);
  var grad = select(-ratio * a, 0.0, binds);
  var k3 = 0.0;
  if (p.use_ref != 0u) {
    let ref_lp = logp_ref[i];
    ok = ok && is_finite(ref_lp);
    let ell = ref_lp - lp;
    k3 = expm1_minus_x(ell);
    if (p.beta != 0.0) {
      loss += p.beta * k3;
      grad -= p.beta * (ell + k3); // β·d k3/d logπ_θ = −β(e^ℓr − 1)
    }
  }
  let wl = w * loss;
  let wg = w * grad;
  ok = ok && is_finite(ratio) && is_finite(k3) && is_finite(wl) && is_finite(wg);
  if (!ok) {
    put(T_INVALID, i, 1.0);
    return;
  }
  dlogp[i] = wg;
  put(T_LOSS, i, wl);
  put(T_RATIO, i, ratio);
  put(T_APPROX_KL, i, 0.5 * log_ratio * log_ratio);
  put(T_CLIPPED, i, select(0.0, 1.0, ratio < 1.0 - p.eps_low || ratio > 1.0 + p.eps_high));
  put(T_CLIP_LOW, i, select(0.0, 1.0, binds && a < 0.0));
  put(T_CLIP_HIGH, i, select(0.0, 1.0, binds && a > 0.0));
  put(T_K3, i, k3);
}
