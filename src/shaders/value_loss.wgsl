// PPO's clipped value loss per token and its gradient w.r.t. the value head's output V.
// For each counted token n (mask[n] ≠ 0), with V = values[n], V_old = values_old[n], G = returns[n] and w
// the token's aggregation weight:
//   V^c = V_old + clamp(V − V_old, −ε_v, ε_v),  u = V − G,  c = V^c − G
//   ℓ_n = ½ max(u², c²)
//   dvalues[n] = grad_scale·w·(u if c² ≤ u²; c if c² > u² and |V − V_old| < ε_v; else 0)
// Inside the clip range V^c is V itself (as float64 V_old + (V − V_old) is), so c = u there exactly.
// Per-token rows terms[k·N + n] (order: src/reference/value_loss.ts VALUE_TERMS): 0 w·ℓ, 1 count,
// 2 [c² > u²] (the clipped term is used), 3 invalid (a counted input or result not finite: rows 0, 2 and
// dvalues are then 0). Masked slots write 0 everywhere and read no other input (NaN there never leaks).
// use_weights = 0: w = p.weight for every counted token (weights not read).
// Shapes: values, values_old, returns, weights, mask, dvalues [N] (N = B·T, flat); terms [4, N].
// Workgroup: WG_X threads, one token each; linear workgroup id wid.x + wid.y·nwg.x.
// Source: ../shared/docs/algorithms.md, "PPO" step 5; Huang et al. 2024, "The N+ Implementation Details of RLHF with
// PPO" (value clipping). CPU twin: src/reference/value_loss.ts (valueLossRef).

override WG_X: u32 = 64u;

const T_LOSS = 0u;
const T_COUNT = 1u;
const T_CLIPPED = 2u;
const T_INVALID = 3u;
const K = 4u;

struct Params {
  n: u32,
  eps_v: f32,
  weight: f32,
  grad_scale: f32,
  use_weights: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, read> values_old: array<f32>;
@group(0) @binding(3) var<storage, read> returns: array<f32>;
@group(0) @binding(4) var<storage, read> weights: array<f32>;
@group(0) @binding(5) var<storage, read> mask: array<f32>;
@group(0) @binding(6) var<storage, read_write> dvalues: array<f32>;
@group(0) @binding(7) var<storage, read_write> terms: array<f32>;

// Exponent bits all ones: ±∞ or NaN. Bit test, since WGSL lets compilers assume x == x.
fn is_finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
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
  dvalues[i] = 0.0;
  if (mask[i] == 0.0) { return; }
  put(T_COUNT, i, 1.0);

  let v = values[i];
  let v_old = values_old[i];
  let g = returns[i];
  var w = p.weight;
  if (p.use_weights != 0u) { w = weights[i]; }
  let diff = v - v_old;
  let inside = abs(diff) < p.eps_v;
  let vc = select(v_old + clamp(diff, -p.eps_v, p.eps_v), v, inside);
  let u = v - g;
  let c = vc - g;
  let use_clipped = c * c > u * u;
  let loss = 0.5 * select(u * u, c * c, use_clipped);
  let grad = select(u, select(0.0, c, inside), use_clipped);
  let wl = w * loss;
  let wg = p.grad_scale * w * grad;
  let ok = is_finite(v) && is_finite(v_old) && is_finite(g) && is_finite(wl) && is_finite(wg);
  if (!ok) {
    put(T_INVALID, i, 1.0);
    return;
  }
  dvalues[i] = wg;
  put(T_LOSS, i, wl);
  put(T_CLIPPED, i, select(0.0, 1.0, use_clipped));
}
