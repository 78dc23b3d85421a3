// Log-prob of each position's target token at temperature τ:
//   logp[n] = log_softmax(logits[n, :] / τ)[target[n]]
//           = (x_t − max x) / τ − log S,  S = Σ_v exp((x_v − max x) / τ) = 1 + r
// r = Σ over the entries below the max of exp((x_v − max x) / τ) + (ties of the max − 1), summed in one vec2
// pass with the tie count, and log S = log1p_f32(r): a near-certain token's log-prob (−2.6e-6) keeps its digits
// (f32 log(S) read it as 0 at one thread per row).
// Shapes: logits [N, V] row-major (N = B·T positions, V vocabulary), targets [N] i32, mask [N] f32 (0/1),
// logp [N].
// A row is in_use when mask[n] ≠ 0 (when p.use_mask ≠ 0) and 0 ≤ target[n] < V; inactive rows read no
// logits (NaN there never leaks) and give 0, as do rows of all −∞. A −∞ target logit gives −∞.
// Workgroup: WG_X threads per row (a power of two ≤ 256) striding over V; shared-memory tree reductions.
// Grid: one workgroup per row, linear id wid.x + wid.y·nwg.x so N may exceed 65535.
// Source: ../shared/docs/algorithms.md, "Notation" (log-probs are computed from logits / τ).
// CPU twin: src/reference/token_logprob.ts (tokenLogprobRef).

override WG_X: u32 = 256u;

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
@group(0) @binding(4) var<storage, read_write> logp: array<f32>;

// #include reduce_vec2 (src/shaders/lib/reduce_vec2.wgsl: scratch, neg_inf, wg_max, wg_sum2, log1p_f32)
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

  let rn = row_norm(lid, base, n, in_use, p.tau); // S = 1 + r (lib/logit_rows.wgsl)

  if (lid == 0u) {
    var lp = 0.0;
    if (rn.live) { lp = (logits[base + u32(t)] - rn.shift) / p.tau - log1p_f32(rn.r); }
    logp[row] = lp;
  }
}
