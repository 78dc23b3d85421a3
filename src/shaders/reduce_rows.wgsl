// Row-wise reduction: out[r] = reduce_{c < C} x[r, c] for r < R.
// Shapes: x [R, C] row-major, out [R].
// Workgroup: WG_X threads (a power of two) per row; each strides over the row, then a shared-memory tree.
// One workgroup per row, linear workgroup id over a 2D grid so R may exceed 65535.
// OP: 0 sum (empty row → 0), 1 max (empty row → −∞).
// CPU twin: src/reference/reduce.ts.

override WG_X: u32 = 256u;
override OP: u32 = 0u;

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

var<workgroup> scratch: array<f32, WG_X>;

fn identity() -> f32 {
  // −∞ for max: built at run time (a constant-expression −∞ is a WGSL compile error).
  var neg_inf_bits = 0xff800000u;
  if (OP == 1u) { return bitcast<f32>(neg_inf_bits); }
  return 0.0;
}

fn combine(u: f32, v: f32) -> f32 {
  if (OP == 1u) { return max(u, v); }
  return u + v;
}

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  let base = row * p.cols;
  var acc = identity();
  for (var c = lid; c < p.cols; c += WG_X) {
    acc = combine(acc, x[base + c]);
  }
  scratch[lid] = acc;
  workgroupBarrier();
  for (var s = WG_X / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { scratch[lid] = combine(scratch[lid], scratch[lid + s]); }
    workgroupBarrier();
  }
  if (lid == 0u) { out[row] = scratch[0]; }
}
