// The normaliser pass and KL sum of exact_kl and its backward, over a row of two distributions,
// p = softmax(policy / τ) and q = softmax(reference / τ). Included with `// #include kl_rows` after
// `// #include reduce_vec2` (whose reductions and log1p_f32 it calls); the including shader declares
// `policy: array<f32>` and `reference: array<f32>` (row-major [N, V]). Every invocation of the workgroup must
// call these (they hold barriers).

// Both rows' normalisers. live: in use and the policy row is not all −∞; ref_live: in use and the reference row
// has a distribution; shift: (policy max, reference max), 0 where not live (no −∞ − (−∞)); log_s: log S of each,
// S = 1 + r, r = Σ e^z below the row's max + (ties of the max − 1), log S = log1p_f32(r).
struct KlNorm {
  live: bool,
  ref_live: bool,
  shift: vec2<f32>,
  log_s: vec2<f32>,
}

// The normalisers of policy and reference [base .. base + n) at temperature tau (n = 0 for a row not in use):
// both maxima in one pass, then two vec2 sums (the rests below the max, then the tie counts).
fn kl_norm(lid: u32, base: u32, n: u32, in_use: bool, tau: f32) -> KlNorm {
  let ninf = neg_inf();
  var m = vec2<f32>(ninf, ninf); // (max policy, max reference)
  for (var c = lid; c < n; c += WG_X) { m = max(m, vec2<f32>(policy[base + c], reference[base + c])); }
  m = wg_max2(lid, m);
  let live = in_use && !is_neg_inf(m.x);
  let ref_live = in_use && !is_neg_inf(m.y);
  let shift = select(vec2<f32>(0.0, 0.0), m, vec2<bool>(live, ref_live));

  var rest = vec2<f32>(0.0, 0.0);
  var ties = vec2<f32>(0.0, 0.0);
  for (var c = lid; c < n; c += WG_X) {
    let x = vec2<f32>(policy[base + c], reference[base + c]);
    let at_max = x == shift;
    rest += select(exp((x - shift) / tau), vec2<f32>(0.0, 0.0), at_max);
    ties += select(vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 1.0), at_max);
  }
  let r = wg_sum2(lid, rest) + (wg_sum2(lid, ties) - 1.0);
  return KlNorm(live, ref_live, shift, vec2<f32>(log1p_f32(r.x), log1p_f32(r.y)));
}

// Σ_v p_v (log p_v − log q_v) over the row, term by term (no cancellation of large O(1) terms when p ≈ q),
// returned to every invocation, not clamped. p_v = 0 adds 0; p_v > 0 with q_v = 0 gives +∞.
fn kl_sum(lid: u32, base: u32, n: u32, k: KlNorm, tau: f32) -> f32 {
  let ninf = neg_inf();
  var acc = 0.0;
  for (var c = lid; c < n; c += WG_X) {
    let lp = (policy[base + c] - k.shift.x) / tau - k.log_s.x;
    let lq = select(ninf, (reference[base + c] - k.shift.y) / tau - k.log_s.y, k.ref_live);
    let pv = exp(lp);
    if (pv > 0.0) { acc += pv * (lp - lq); }
  }
  return wg_sum2(lid, vec2<f32>(acc, 0.0)).x;
}
