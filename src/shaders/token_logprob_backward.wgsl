// Backward of token_logprob: with p = softmax(logits[n, :] / τ),
//   dlogits[n, v] (=|+=) dlogp[n] · ([v = target[n]] − p_v) / τ
// p_v = e^{z_v} / S with S = 1 + r as in token_logprob.wgsl; a target at the row's max takes 1 − p_t = r / S
// (not 1 − p_t, which rounds to 0 or a few ulps when the target is near-certain).
// ACCUMULATE = false overwrites dlogits (inactive rows get 0); true adds (inactive rows are left untouched).
// Shapes: logits [N, V], targets [N] i32, mask [N] f32 (0/1), dlogp [N], dlogits [N, V].
// A row is in_use when mask[n] ≠ 0 (when p.use_mask ≠ 0), 0 ≤ target[n] < V and its logits are not all −∞;
// inactive rows read neither logits nor dlogp (NaN there never leaks).
// Workgroup: WG_X threads per row (a power of two ≤ 256) striding over V; shared-memory tree reductions.
// Grid: one workgroup per row, linear id wid.x + wid.y·nwg.x so N may exceed 65535.
// Source: d/dx_v log softmax(x/τ)_t = ([v = t] − p_v)/τ; ../shared/docs/algorithms.md, "Notation".
// CPU twin: src/reference/token_logprob.ts (tokenLogprobBackwardRef).

override WG_X: u32 = 256u;
override ACCUMULATE: bool = false;

struct Params {
  rows: u32,
  cols: u32,
  tau: f32,
  use_mask: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> targets: array<i32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read> dlogp: array<f32>;
@group(0) @binding(5) var<storage, read_write> dlogits: array<f32>;

// #include reduce_vec2 (src/shaders/lib/reduce_vec2.wgsl: scratch, neg_inf, wg_max, wg_sum2)
// #include logit_rows (src/shaders/lib/logit_rows.wgsl: RowNorm, row_norm)

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  let base = row * p.cols;
  let t = targets[row];
  var in_use = t >= 0 && u32(t) < p.cols;
  if (p.use_mask != 0u) { in_use = in_use && mask[row] != 0.0; }
  let n = select(0u, p.cols, in_use); // inactive rows read nothing

  let rn = row_norm(lid, base, n, in_use, p.tau); // S = 1 + r, as in token_logprob (lib/logit_rows.wgsl)
  let live = rn.live;
  let shift = rn.shift;
  let r = rn.r;
  let s = 1.0 + r;

  var g = 0.0;
  if (live) { g = dlogp[row] / p.tau; }
  for (var c = lid; c < p.cols; c += WG_X) {
    var d = 0.0;
    if (live) {
      let x = logits[base + c];
      var q = select(0.0, 1.0, i32(c) == t) - exp((x - shift) / p.tau) / s;
      if (i32(c) == t && x >= shift) { q = r / s; } // a max target: 1 − p_t = r/(1 + r), no cancellation
      d = g * q;
    }
    if (ACCUMULATE) {
      if (live) { dlogits[base + c] += d; }
    } else {
      dlogits[base + c] = d;
    }
  }
}
