// Layer norm forward (GPT-2 ln_1, ln_2, ln_f):
//   mean[n] = Σ_c x[n, c] / C,  rstd[n] = 1 / sqrt(Σ_c (x[n, c] − mean[n])² / C + eps)
//   out[n, c] = (x[n, c] − mean[n]) · rstd[n] · weight[c] + bias[c]
// Shapes: x, out [N, C] with N = B·T rows; weight, bias [C]; mean, rstd [N] (saved for the backward pass).
// Workgroup: WG_X threads (a power of two ≤ 256) per row; each strides over the row, then a shared-memory tree
// sum (two passes: mean, then the centred variance). WG_X = 1 has no barriers at all (software adapters).
// Grid: one workgroup per row, linear id over a 2D grid (N may exceed 65535).
// Source: Ba et al. 2016, "Layer Normalization", eq. 4; karpathy/llm.c layernorm_forward.
// CPU twin: src/reference/layernorm.ts (layernormRef).

override WG_X: u32 = 256u;

struct Params {
  rows: u32,
  cols: u32,
  eps: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
@group(0) @binding(5) var<storage, read_write> mean: array<f32>;
@group(0) @binding(6) var<storage, read_write> rstd: array<f32>;

var<workgroup> scratch: array<f32, WG_X>;

// Sum of v over the workgroup's threads, returned to every thread (fixed tree order: deterministic).
fn row_sum(lid: u32, v: f32) -> f32 {
  if (WG_X == 1u) { return v; }
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = WG_X / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { scratch[lid] += scratch[lid + s]; }
    workgroupBarrier();
  }
  let total = scratch[0];
  workgroupBarrier(); // every thread has read the total before scratch is reused
  return total;
}

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  let base = row * p.cols;
  let inv_c = 1.0 / f32(p.cols);

  var acc = 0.0;
  for (var c = lid; c < p.cols; c += WG_X) { acc += x[base + c]; }
  let m = row_sum(lid, acc) * inv_c;

  acc = 0.0;
  for (var c = lid; c < p.cols; c += WG_X) {
    let d = x[base + c] - m;
    acc += d * d;
  }
  let s = 1.0 / sqrt(row_sum(lid, acc) * inv_c + p.eps);

  for (var c = lid; c < p.cols; c += WG_X) {
    out[base + c] = (x[base + c] - m) * s * weight[c] + bias[c];
  }
  if (lid == 0u) {
    mean[row] = m;
    rstd[row] = s;
  }
}
