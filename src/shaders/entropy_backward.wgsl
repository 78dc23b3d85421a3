// Backward of entropy: with p = softmax(logits[n, :] / τ) and H[n] = −Σ_v p_v log p_v,
//   dlogits[n, v] (=|+=) dH[n] · (−p_v (log p_v + H[n])) / τ      (entries with p_v = 0 give 0)
// log p_v = z_v − log1p_f32(r) and H as in entropy.wgsl (S = 1 + r, accurate near certainty).
// ACCUMULATE = false overwrites dlogits (inactive rows get 0); true adds (inactive rows are left untouched).
// Shapes: logits [N, V] row-major, mask [N] f32 (0/1), dH [N], dlogits [N, V].
// Rows with mask[n] = 0 (when p.use_mask ≠ 0) read neither logits nor dH (NaN there never leaks); they and
// rows of all −∞ contribute 0.
// Workgroup: WG_X threads per row (a power of two ≤ 256) striding over V; shared-memory tree reductions.
// Grid: one workgroup per row, linear id wid.x + wid.y·nwg.x so N may exceed 65535.
// Source: dH/dz_v = −p_v (log p_v + H), z = x/τ; ../shared/docs/algorithms.md, "Entropy".
// CPU twin: src/reference/entropy.ts (entropyBackwardRef).

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
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read> dH: array<f32>;
@group(0) @binding(4) var<storage, read_write> dlogits: array<f32>;

// #include reduce_vec2 (src/shaders/lib/reduce_vec2.wgsl: scratch, neg_inf, wg_max_count, wg_sum2, log1p_f32)
// #include logit_rows (src/shaders/lib/logit_rows.wgsl: EntropyNorm, entropy_norm)

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  let base = row * p.cols;
  let in_use = p.use_mask == 0u || mask[row] != 0.0;
  let n = select(0u, p.cols, in_use); // inactive rows read nothing

  let e = entropy_norm(lid, base, n, in_use, p.tau); // S = 1 + e.r (lib/logit_rows.wgsl)
  let live = e.live;
  let shift = e.shift;
  let log_s = log1p_f32(e.r);
  let h = max(log_s + e.ez / (1.0 + e.r), 0.0);

  var g = 0.0;
  if (live) { g = dH[row] / p.tau; }
  for (var c = lid; c < p.cols; c += WG_X) {
    var d = 0.0;
    if (live) {
      let lp = (logits[base + c] - shift) / p.tau - log_s;
      let pv = exp(lp);
      if (pv > 0.0) { d = -g * pv * (lp + h); }
    }
    if (ACCUMULATE) {
      if (live) { dlogits[base + c] += d; }
    } else {
      dlogits[base + c] = d;
    }
  }
}
