// Layer norm backward, input gradient. With norm = (x − mean)·rstd and g = dout·weight (per row n):
//   dx[n, c] (=|+=) rstd[n] · (g[c] − mean_c(g) − norm[c] · mean_c(g·norm))
// Shapes: dout, x, dx [N, C] with N = B·T rows; weight [C]; mean, rstd [N] saved by layernorm.wgsl.
// ACCUMULATE: false overwrites dx, true adds into it (the residual stream's gradient).
// Workgroup: WG_X threads (a power of two ≤ 256) per row; one shared-memory tree sums both row means at once
// (vec2). WG_X = 1 has no barriers. Grid: one workgroup per row, linear id over a 2D grid.
// The parameter gradients (dweight, dbias) are column sums: src/shaders/layernorm_param_grad.wgsl.
// Source: karpathy/llm.c layernorm_backward (derivation of Ba et al. 2016, eq. 4).
// CPU twin: src/reference/layernorm.ts (layernormBackwardRef).

override WG_X: u32 = 256u;
override ACCUMULATE: bool = false;

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> dout: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> weight: array<f32>;
@group(0) @binding(4) var<storage, read> mean: array<f32>;
@group(0) @binding(5) var<storage, read> rstd: array<f32>;
@group(0) @binding(6) var<storage, read_write> dx: array<f32>;

var<workgroup> scratch: array<vec2<f32>, WG_X>;

// Sum of v over the workgroup's threads, returned to every thread (fixed tree order: deterministic).
fn row_sum2(lid: u32, v: vec2<f32>) -> vec2<f32> {
  if (WG_X == 1u) { return v; }
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = WG_X / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { scratch[lid] += scratch[lid + s]; }
    workgroupBarrier();
  }
  return scratch[0];
}

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  let base = row * p.cols;
  let m = mean[row];
  let s = rstd[row];

  var acc = vec2<f32>(0.0, 0.0); // (Σ g, Σ g·norm)
  for (var c = lid; c < p.cols; c += WG_X) {
    let g = dout[base + c] * weight[c];
    let norm = (x[base + c] - m) * s;
    acc += vec2<f32>(g, g * norm);
  }
  let means = row_sum2(lid, acc) / f32(p.cols);

  for (var c = lid; c < p.cols; c += WG_X) {
    let g = dout[base + c] * weight[c];
    let norm = (x[base + c] - m) * s;
    let d = s * (g - means.x - norm * means.y);
    if (ACCUMULATE) { dx[base + c] += d; } else { dx[base + c] = d; }
  }
}
