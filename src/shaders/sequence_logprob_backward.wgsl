// Backward of sequence_logprob: spreads a gradient per sequence over its counted tokens (the "broadcast"
// step of the DPO family, KTO, ORPO):
//   dlogp[r, t] = mask[r, t] ≠ 0 ? g[r]            : 0     (MEAN = false: ∂Σ_t logp/∂logp[r, t] = 1)
//   dlogp[r, t] = mask[r, t] ≠ 0 ? g[r]/lengths[r] : 0     (MEAN = true: the per-token average)
// g and lengths are not read for masked slots (NaN there never leaks into dlogp).
// Shapes: g, lengths [R]; mask, dlogp [R, T] row-major.
// Workgroup: WG_X threads, one token slot each; linear workgroup id wid.x + wid.y·nwg.x.
// Source: ../shared/docs/algorithms.md, "DPO family". CPU twin: src/reference/sequence_logprob.ts
// (sequenceLogprobBackwardRef).

override WG_X: u32 = 64u;
override MEAN: bool = false;

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> g: array<f32>;
@group(0) @binding(2) var<storage, read> lengths: array<f32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read_write> dlogp: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.rows * p.cols) { return; }
  var d = 0.0;
  if (mask[i] != 0.0) {
    let r = i / p.cols;
    d = g[r];
    if (MEAN) { d = d / lengths[r]; }
  }
  dlogp[i] = d;
}
