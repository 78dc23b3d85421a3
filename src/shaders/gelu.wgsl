// GELU forward, GPT-2's tanh approximation: out[i] = 0.5 · x · (1 + tanh(u)), u = √(2/π) · (x + 0.044715 · x³).
// Evaluated through the exact identity 0.5 · (1 + tanh(u)) = σ(2u) = 1 / (1 + exp(−2u)), with e = exp(−2|u|):
//   σ(2u) = 1 / (1 + e) for u ≥ 0, e / (1 + e) for u < 0,
// which keeps full relative precision for negative x (1 + tanh(u) cancels there, and f32 tanh saturates early).
// The polynomial uses x clamped to ±10: beyond, σ(2u) is 1 or < 1e-37, so out = x or ≈ 0 as in exact arithmetic,
// and neither x³ nor exp overflows: finite for every finite x (WGSL may assume no infinities in a shader).
// Shapes: x, out [N] flat (e.g. the MLP hidden activations [B, T, 4C]); out must not alias x.
// Workgroup: WG_X threads, one element each. Grid: ceil(N / WG_X) workgroups, linear id over a 2D grid.
// Source: Hendrycks & Gimpel 2016, "Gaussian Error Linear Units", §2; karpathy/llm.c gelu_forward.
// CPU twin: src/reference/gelu.ts (geluRef, written with tanh).

override WG_X: u32 = 256u;

const GELU_K: f32 = 0.7978845608028654; // √(2/π)
const GELU_A: f32 = 0.044715;

struct Params {
  n: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  let v = x[i];
  let xc = clamp(v, -10.0, 10.0);
  let u = GELU_K * (xc + GELU_A * xc * xc * xc);
  let e = exp(-2.0 * abs(u));
  let s = select(e / (1.0 + e), 1.0 / (1.0 + e), u >= 0.0); // σ(2u) = 0.5 · (1 + tanh(u))
  out[i] = v * s;
}
