// Row softmax / log-softmax at temperature τ:
//   out[n, v] = softmax(logits[n, :] / τ)[v]        (LOG = false)
//   out[n, v] = log_softmax(logits[n, :] / τ)[v]    (LOG = true)
// Max-shifted before the division, z_v = (x_v − max_u x_u) / τ, so [v, v] gives −ln 2 for any finite v.
// log S = log1p_f32(r), S = Σ_v e^{z_v} = 1 + r, r = Σ of e^{z_v} below the max + (ties of the max − 1) (one vec2
// pass): a near-certain entry's log-prob (−2.6e-6) keeps its digits where f32 log(S) lost them.
// Shapes: logits [N, V] row-major (N = B·T positions, V vocabulary), out [N, V].
// Workgroup: WG_X threads per row (a power of two ≤ 256) striding over V; shared-memory tree reductions.
// Grid: one workgroup per row, linear id wid.x + wid.y·nwg.x so N may exceed 65535.
// Logits must be finite or −∞; a row of all −∞ gives zeros, never NaN.
// Source: ../shared/docs/algorithms.md, "Notation" (every distribution is softmax(logits / τ)).
// CPU twin: src/reference/softmax.ts.

override WG_X: u32 = 256u;
override LOG: bool = false;

struct Params {
  rows: u32,
  cols: u32,
  tau: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

// #include reduce_vec2 (src/shaders/lib/reduce_vec2.wgsl: scratch, neg_inf, wg_max, wg_sum2, log1p_f32)
// #include logit_rows (src/shaders/lib/logit_rows.wgsl: RowNorm, row_norm)

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  let base = row * p.cols;

  let rn = row_norm(lid, base, p.cols, true, p.tau); // S = 1 + r (lib/logit_rows.wgsl)
  let empty = !rn.live;  // all −∞: no distribution, write zeros
  let shift = rn.shift;  // 0 for an empty row: keeps −∞ − (−∞) = NaN out
  let r = rn.r;
  let s = 1.0 + r;
  let log_s = log1p_f32(r);

  for (var c = lid; c < p.cols; c += WG_X) {
    let z = (logits[base + c] - shift) / p.tau;
    var y = exp(z) / s;
    if (LOG) { y = z - log_s; }
    out[base + c] = select(y, 0.0, empty);
  }
}
