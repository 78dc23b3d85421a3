// Backward of exact_kl with respect to the policy logits only (the reference is frozen):
//   dpolicy[n, v] (=|+=) dkl[n] · p_v ((log p_v − log q_v) − KL[n]) / τ     (entries with p_v = 0 give 0)
// log p, log q and KL as in exact_kl.wgsl (log S = log1p_f32(r), accurate near certainty).
// ACCUMULATE = false overwrites dpolicy (inactive rows get 0); true adds (inactive rows are left untouched).
// A row whose KL is +∞ (p_v > 0 where q_v = 0) has no finite gradient: it contributes 0, and the forward's
// +∞ is the signal.
// Shapes: policy [N, V], ref [N, V] row-major, mask [N] f32 (0/1), dkl [N], dpolicy [N, V].
// Rows with mask[n] = 0 (when p.use_mask ≠ 0) read neither logits nor dkl (NaN there never leaks); they and
// rows whose policy logits are all −∞ contribute 0.
// Workgroup: WG_X threads per row (a power of two ≤ 256) striding over V; shared-memory tree reductions.
// Grid: one workgroup per row, linear id wid.x + wid.y·nwg.x so N may exceed 65535.
// Source: dKL/dz_v = p_v (log p_v − log q_v − KL), z = policy/τ; ../shared/docs/algorithms.md, "KL estimators".
// CPU twin: src/reference/exact_kl.ts (exactKlBackwardRef).

override WG_X: u32 = 256u;
override ACCUMULATE: bool = false;

struct Params {
  rows: u32,
  cols: u32,
  tau: f32,
  use_mask: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> policy: array<f32>;
@group(0) @binding(2) var<storage, read> reference: array<f32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read> dkl: array<f32>;
@group(0) @binding(5) var<storage, read_write> dpolicy: array<f32>;

// #include reduce_vec2 (src/shaders/lib/reduce_vec2.wgsl: scratch, neg_inf, wg_max2, wg_sum2, log1p_f32)
// #include kl_rows (src/shaders/lib/kl_rows.wgsl: KlNorm, kl_norm, kl_sum)

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  let base = row * p.cols;
  let in_use = p.use_mask == 0u || mask[row] != 0.0;
  let n = select(0u, p.cols, in_use); // inactive rows read nothing
  let k = kl_norm(lid, base, n, in_use, p.tau); // log S of both rows (lib/kl_rows.wgsl)
  let live = k.live;
  let kl = max(kl_sum(lid, base, n, k, p.tau), 0.0); // KL, as in exact_kl.wgsl
  let ok = live && k.ref_live && (bitcast<u32>(kl) & 0x7f800000u) != 0x7f800000u; // finite KL: every q_v > 0 where p_v > 0

  var g = 0.0;
  if (ok) { g = dkl[row] / p.tau; }
  for (var c = lid; c < p.cols; c += WG_X) {
    var d = 0.0;
    if (ok) {
      let lp = (policy[base + c] - k.shift.x) / p.tau - k.log_s.x;
      let lq = (reference[base + c] - k.shift.y) / p.tau - k.log_s.y;
      let pv = exp(lp);
      if (pv > 0.0) { d = g * pv * ((lp - lq) - kl); }
    }
    if (ACCUMULATE) {
      if (ok) { dpolicy[base + c] += d; }
    } else {
      dpolicy[base + c] = d;
    }
  }
}
