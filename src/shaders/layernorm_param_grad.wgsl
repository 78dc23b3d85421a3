// Layer norm backward, parameter gradients (column sums over the N = B·T rows), ACCUMULATED:
//   dweight[c] += Σ_n dout[n, c] · (x[n, c] − mean[n]) · rstd[n]
//   dbias[c]   += Σ_n dout[n, c]
// Shapes: dout, x [N, C]; mean, rstd [N] saved by layernorm.wgsl; dweight, dbias [C].
// Workgroup: [WG_X columns, WG_Y row lanes]. Thread (cx, ly) sums rows ly, ly + WG_Y, … of its column
// (consecutive cx read consecutive addresses), then a shared-memory tree over the WG_Y lanes; lane 0 adds the
// total into the gradients. Every column has one writer and a fixed summation order: deterministic, no atomics.
// WG_Y = 1 (software adapters) has no barriers. Grid: ceil(C / WG_X) workgroups, linear id over a 2D grid.
// Source: karpathy/llm.c layernorm_backward (dweight, dbias lines).
// CPU twin: src/reference/layernorm.ts (layernormBackwardRef: dweight, dbias).

override WG_X: u32 = 16u;
override WG_Y: u32 = 16u;

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> dout: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> mean: array<f32>;
@group(0) @binding(4) var<storage, read> rstd: array<f32>;
@group(0) @binding(5) var<storage, read_write> dweight: array<f32>;
@group(0) @binding(6) var<storage, read_write> dbias: array<f32>;

var<workgroup> scratch: array<vec2<f32>, WG_X * WG_Y>;

fn write(col: u32, v: vec2<f32>) {
  dweight[col] += v.x;
  dbias[col] += v.y;
}

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
  let col = (wid.x + wid.y * nwg.x) * WG_X + lid.x;
  var acc = vec2<f32>(0.0, 0.0); // (Σ dout·norm, Σ dout)
  if (col < p.cols) {
    for (var r = lid.y; r < p.rows; r += WG_Y) {
      let i = r * p.cols + col;
      let d = dout[i];
      acc += vec2<f32>(d * (x[i] - mean[r]) * rstd[r], d);
    }
  }
  if (WG_Y == 1u) {
    if (col < p.cols) { write(col, acc); }
    return;
  }
  let slot = lid.y * WG_X + lid.x;
  scratch[slot] = acc;
  workgroupBarrier();
  for (var s = WG_Y / 2u; s > 0u; s >>= 1u) {
    if (lid.y < s) { scratch[slot] += scratch[slot + s * WG_X]; }
    workgroupBarrier();
  }
  if (lid.y == 0u && col < p.cols) { write(col, scratch[lid.x]); }
}
