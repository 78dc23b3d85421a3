// Strided row gather: out[i, c] = x[offset + i·stride, c] for i < rows, c < cols.
// Shapes: x [R, cols] row-major (R ≥ offset + (rows−1)·stride + 1), out [rows, cols].
// Used to pick each sequence's last prompt position (stride T, offset T−1) before the LM head.
// Workgroup: WG_X threads, one element each; linear workgroup id over a 2D grid.
// CPU twin: src/reference/gather_rows.ts.

override WG_X: u32 = 256u;

struct Params {
  rows: u32,
  cols: u32,
  stride: u32,
  offset: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.rows * p.cols) { return; }
  let r = i / p.cols;
  let c = i % p.cols;
  out[i] = x[(p.offset + r * p.stride) * p.cols + c];
}
