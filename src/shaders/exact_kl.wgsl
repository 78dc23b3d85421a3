// Exact KL(π_θ ‖ π_ref) over the whole vocabulary at temperature τ:
//   kl[n] = Σ_v p_v (log p_v − log q_v),  p = softmax(policy[n, :] / τ),  q = softmax(ref[n, :] / τ)
// Three passes: both maxima, both normalisers, then the sum of p_v (log p_v − log q_v) term by term (no
// cancellation of large O(1) terms when p ≈ q). Clamped at ≥ 0.
// Each normaliser is S = 1 + r, r = Σ of e^{z_v} below the row's max + (ties of the max − 1) (two vec2 sums:
// the rests, then the tie counts), and log S = log1p_f32(r): near-certain rows keep log p_max = −log1p(r) to its
// last digits, so a small KL (5e-5 nats) has no ~2e-7 nats/token floor from f32 log(S).
// Entries with p_v = 0 add 0 (0·log 0 = 0, whatever q_v is); p_v > 0 with q_v = 0 (a −∞ reference logit, or a
// reference row of all −∞) gives +∞.
// Shapes: policy [N, V], ref [N, V] row-major (N = B·T positions, V vocabulary), mask [N] f32 (0/1), kl [N].
// Rows with mask[n] = 0 (when p.use_mask ≠ 0) read no logits (NaN there never leaks) and give 0, as do rows
// whose policy logits are all −∞.
// Workgroup: WG_X threads per row (a power of two ≤ 256) striding over V; shared-memory tree reductions.
// Grid: one workgroup per row, linear id wid.x + wid.y·nwg.x so N may exceed 65535.
// Source: ../shared/docs/algorithms.md, "KL estimators" (exact; Schulman 2020).
// CPU twin: src/reference/exact_kl.ts (exactKlRef).

override WG_X: u32 = 256u;

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
@group(0) @binding(4) var<storage, read_write> kl: array<f32>;

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
  let acc = kl_sum(lid, base, n, k, p.tau); // every invocation: it holds barriers
  if (lid == 0u) { kl[row] = select(0.0, max(acc, 0.0), live); }
}
