// Entropy of each position's distribution at temperature τ, in nats:
//   H[n] = −Σ_v p_v log p_v,  p = softmax(logits[n, :] / τ)
// With z_v = (x_v − max x)/τ ≤ 0 and S = Σ_v e^{z_v}: H = log S + (Σ_v e^{z_v}·(−z_v)) / S, a sum of two
// non-negative terms (no cancellation); entries with e^{z_v} = 0 add 0 (0·log 0 = 0). Clamped at ≥ 0.
// S = 1 + r with r = Σ of e^{z_v} below the max + (ties of the max − 1), the ties counted in the max pass, so
// H = log1p_f32(r) + (Σ_{below the max} e^{z_v}·(−z_v)) / (1 + r): a near-certain row's entropy (5e-5 nats) keeps
// its digits where f32 log(S) read it 5 % low.
// Shapes: logits [N, V] row-major (N = B·T positions, V vocabulary), mask [N] f32 (0/1), H [N].
// Rows with mask[n] = 0 (when p.use_mask ≠ 0) read no logits (NaN there never leaks) and give 0, as do rows
// of all −∞.
// Workgroup: WG_X threads per row (a power of two ≤ 256) striding over V; shared-memory tree reductions.
// Grid: one workgroup per row, linear id wid.x + wid.y·nwg.x so N may exceed 65535.
// Source: ../shared/docs/algorithms.md, "Entropy".
// CPU twin: src/reference/entropy.ts (entropyRef).

override WG_X: u32 = 256u;

struct Params {
  rows: u32,
  cols: u32,
  tau: f32,
  use_mask: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read_write> H: array<f32>;

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

  if (lid == 0u) {
    var h = 0.0;
    if (e.live) { h = max(log1p_f32(e.r) + e.ez / (1.0 + e.r), 0.0); }
    H[row] = h;
  }
}
