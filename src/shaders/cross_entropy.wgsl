// Fused softmax + cross-entropy for (pre)training at τ = 1 (llm.c's fused_classifier):
//   loss[n]       = log Σ_v exp(x_v − max x) − (x_t − max x)          (= −log softmax(x)_t, t = target[n])
// The sum is S = 1 + r, r = Σ of exp(x_v − max x) below the max + (ties of the max − 1) (one vec2 pass), and
// log S = log1p_f32(r); a target at the max takes p_t − 1 = −r/S: a near-certain target's loss (2.6e-6) and
// gradient keep their digits where f32 log(S) and p_t − 1 lost them.
//   dlogits[n, v] (=|+=) (softmax(x)_v − [v = t]) · scale             (scale: e.g. 1 / #non-ignored targets)
// ACCUMULATE = false overwrites dlogits (ignored rows get 0); true adds (ignored rows are left untouched).
// Shapes: logits [N, V] row-major (N = B·T positions, V vocabulary), targets [N] i32, loss [N], dlogits [N, V].
// A row is ignored when target[n] < 0 or ≥ V, or its logits are all −∞: 0 loss and 0 gradient, and its
// logits are not read (NaN there never leaks). A −∞ target logit gives +∞ loss (finite gradient).
// Workgroup: WG_X threads per row (a power of two ≤ 256) striding over V; shared-memory tree reductions.
// Grid: one workgroup per row, linear id wid.x + wid.y·nwg.x so N may exceed 65535.
// Source: cross-entropy −log p_t and d/dx_v = p_v − [v = t]; karpathy/llm.c fused_classifier.
// CPU twin: src/reference/cross_entropy.ts (crossEntropyRef).

override WG_X: u32 = 256u;
override ACCUMULATE: bool = false;

struct Params {
  rows: u32,
  cols: u32,
  scale: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> targets: array<i32>;
@group(0) @binding(3) var<storage, read_write> loss: array<f32>;
@group(0) @binding(4) var<storage, read_write> dlogits: array<f32>;

// #include reduce_vec2 (src/shaders/lib/reduce_vec2.wgsl: scratch, neg_inf, wg_max, wg_sum2, log1p_f32)
// #include logit_rows (src/shaders/lib/logit_rows.wgsl: RowNorm, row_norm)

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  let base = row * p.cols;
  let t = targets[row];
  let in_use = t >= 0 && u32(t) < p.cols;
  let n = select(0u, p.cols, in_use); // ignored rows read nothing

  let rn = row_norm(lid, base, n, in_use, 1.0); // S = 1 + r at τ = 1 (x / 1 is exact; lib/logit_rows.wgsl)
  let live = rn.live; // a target and a distribution
  let shift = rn.shift;
  let r = rn.r;
  let s = 1.0 + r;

  if (lid == 0u) {
    var l = 0.0;
    if (live) { l = log1p_f32(r) - (logits[base + u32(t)] - shift); }
    loss[row] = l;
  }
  for (var c = lid; c < p.cols; c += WG_X) {
    var d = 0.0;
    if (live) {
      let x = logits[base + c];
      var q = exp(x - shift) / s - select(0.0, 1.0, i32(c) == t);
      if (i32(c) == t && x >= shift) { q = -r / s; } // a max target: p_t − 1 = −r/(1 + r), no cancellation
      d = q * p.scale;
    }
    if (ACCUMULATE) {
      if (live) { dlogits[base + c] += d; }
    } else {
      dlogits[base + c] = d;
    }
  }
}
