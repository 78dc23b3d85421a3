// Sequence log-probs: masked sum (or per-token mean) of per-token log-probs over each row.
//   lengths[r] = Σ_t [mask[r, t] ≠ 0]                         (|y_r|, counted tokens)
//   out[r]     = Σ_{t: mask ≠ 0} logp[r, t]                   (MEAN = false: logπ(y_r|x))
//   out[r]     = that sum / lengths[r], 0 for an empty row     (MEAN = true: the per-token average)
// Masked slots are not read (NaN there never leaks). Summation order: t = 0, 1, …, T − 1.
// Shapes: logp, mask [R, T] row-major (R sequences, e.g. 2B for DPO's chosen rows then rejected rows);
// out, lengths [R].
// Workgroup: WG_X threads, one row each (a serial loop over T: rows are short and R is small, so no
// shared memory or barriers); linear workgroup id wid.x + wid.y·nwg.x.
// Source: ../shared/docs/algorithms.md, "DPO family" (logπ(y|x) = sum of completion token log-probs; per-token
// averages for ipo and simpo), "ORPO" (mean of completion token log-probs).
// CPU twin: src/reference/sequence_logprob.ts (sequenceLogprobRef).

override WG_X: u32 = 64u;
override MEAN: bool = false;

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logp: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read_write> lengths: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let r = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (r >= p.rows) { return; }
  let base = r * p.cols;
  var s = 0.0;
  var n = 0.0;
  for (var t = 0u; t < p.cols; t++) {
    if (mask[base + t] != 0.0) {
      s += logp[base + t];
      n += 1.0;
    }
  }
  if (MEAN) { s = select(0.0, s / n, n > 0.0); }
  out[r] = s;
  lengths[r] = n;
}
