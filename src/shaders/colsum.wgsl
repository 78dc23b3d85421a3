// Column sum, the bias gradient of a linear layer, ACCUMULATED: dbias[c] += Σ_n dout[n, c].
// Shapes: dout [N, C] with N = B·T rows (any leading dims flattened); dbias [C].
// Workgroup: [WG_X columns, WG_Y row lanes]. Thread (cx, ly) sums rows ly, ly + WG_Y, … of its column
// (consecutive cx read consecutive addresses), then a shared-memory tree over the WG_Y lanes; lane 0 adds the
// total into dbias. Every column has one writer and a fixed summation order: deterministic, no atomics.
// WG_Y = 1 (software adapters) has no barriers. Grid: ceil(C / WG_X) workgroups, linear id over a 2D grid.
// Source: ∂L/∂b of y = x·W + b (b broadcast over rows); karpathy/llm.c matmul_backward (dbias).
// CPU twin: src/reference/colsum.ts.

override WG_X: u32 = 16u;
override WG_Y: u32 = 16u;

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> dout: array<f32>;
@group(0) @binding(2) var<storage, read_write> dbias: array<f32>;

var<workgroup> scratch: array<f32, WG_X * WG_Y>;

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
  let col = (wid.x + wid.y * nwg.x) * WG_X + lid.x;
  var acc = 0.0;
  if (col < p.cols) {
    for (var r = lid.y; r < p.rows; r += WG_Y) { acc += dout[r * p.cols + col]; }
  }
  if (WG_Y == 1u) {
    if (col < p.cols) { dbias[col] += acc; }
    return;
  }
  let slot = lid.y * WG_X + lid.x;
  scratch[slot] = acc;
  workgroupBarrier();
  for (var s = WG_Y / 2u; s > 0u; s >>= 1u) {
    if (lid.y < s) { scratch[slot] += scratch[slot + s * WG_X]; }
    workgroupBarrier();
  }
  if (lid.y == 0u && col < p.cols) { dbias[col] += scratch[lid.x]; }
}
