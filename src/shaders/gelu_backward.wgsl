// GELU backward (tanh approximation): dx[i] (=|+=) dout[i] · gelu'(x[i]), with u = √(2/π)·(x + 0.044715·x³),
//   gelu'(x) = 0.5·(1 + tanh(u)) + 0.5·x·(1 − tanh²(u))·√(2/π)·(1 + 3·0.044715·x²).
// Evaluated through exact identities with e = exp(−2|u|): 0.5·(1 + tanh(u)) = σ(2u) (1 / (1 + e) for u ≥ 0,
// e / (1 + e) for u < 0) and 1 − tanh²(u) = 4e / (1 + e)², which keep full relative precision where tanh
// saturates (f32 tanh(−8.5) may already be −1, which would zero the gradient at x ≈ −5).
// The polynomial uses x clamped to ±10: beyond, gelu' is 1 or < 1e-35, and nothing overflows, so dx is finite for
// every finite x.
// Shapes: x, dout, dx [N] flat; dx must not alias x or dout.
// ACCUMULATE: false overwrites dx, true adds into it.
// Workgroup: WG_X threads, one element each. Grid: ceil(N / WG_X) workgroups, linear id over a 2D grid.
// Source: derivative of Hendrycks & Gimpel 2016, §2; karpathy/llm.c gelu_backward.
// CPU twin: src/reference/gelu.ts (geluBackwardRef, written with tanh).

override WG_X: u32 = 256u;
override ACCUMULATE: bool = false;

const GELU_K: f32 = 0.7978845608028654; // √(2/π)
const GELU_A: f32 = 0.044715;

struct Params {
  n: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> dout: array<f32>;
@group(0) @binding(3) var<storage, read_write> dx: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  let xc = clamp(x[i], -10.0, 10.0);
  let u = GELU_K * (xc + GELU_A * xc * xc * xc);
  let e = exp(-2.0 * abs(u));
  let r = 1.0 / (1.0 + e);
  let s = select(e * r, r, u >= 0.0);                      // 0.5 · (1 + tanh(u))
  let sech2 = 4.0 * e * r * r;                             // 1 − tanh²(u)
  let grad = s + 0.5 * xc * sech2 * GELU_K * (1.0 + 3.0 * GELU_A * xc * xc);
  let d = dout[i] * grad;
  if (ACCUMULATE) { dx[i] += d; } else { dx[i] = d; }
}
