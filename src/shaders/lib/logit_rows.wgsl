// The normaliser pass of the vocabulary-row kernels that read one row of logits (softmax, token_logprob and its
// backward, cross_entropy; entropy and its backward): the row's max, then S = Σ_v e^{z_v}, z_v = (x_v − max x)/τ,
// written as S = 1 + r with r = Σ of e^{z_v} below the max + (ties of the max − 1), so that log S = log1p_f32(r)
// keeps a near-certain row's digits (see log1p_f32 in reduce_vec2.wgsl). Included with `// #include logit_rows`
// after `// #include reduce_vec2` (whose reductions it calls); the including shader declares
// `logits: array<f32>` (row-major [N, V]). Every invocation of the workgroup must call these (they hold barriers).

// One row's normaliser. live: the row is in use and not all −∞; shift: its max when live, else 0 (keeps
// −∞ − (−∞) = NaN out of the sums); r: S = 1 + r (unused when not live).
struct RowNorm {
  live: bool,
  shift: f32,
  r: f32,
}

// The normaliser of logits[base .. base + n) at temperature tau (n = 0 for a row not in use: it reads nothing):
// a max pass, then one vec2 pass (Σ e^z below the max, ties of the max).
fn row_norm(lid: u32, base: u32, n: u32, in_use: bool, tau: f32) -> RowNorm {
  var m = neg_inf();
  for (var c = lid; c < n; c += WG_X) { m = max(m, logits[base + c]); }
  m = wg_max(lid, m);
  let live = in_use && !is_neg_inf(m);
  let shift = select(0.0, m, live);

  var acc = vec2<f32>(0.0, 0.0); // (Σ e^z below the max, ties of the max)
  for (var c = lid; c < n; c += WG_X) {
    let x = logits[base + c];
    if (x == shift) { acc.y += 1.0; } else { acc.x += exp((x - shift) / tau); }
  }
  acc = wg_sum2(lid, acc);
  return RowNorm(live, shift, acc.x + (acc.y - 1.0));
}

// RowNorm plus ez = Σ below the max of e^{z_v}·(−z_v), the entropy's second sum: H = log1p_f32(r) + ez / (1 + r).
struct EntropyNorm {
  live: bool,
  shift: f32,
  r: f32,
  ez: f32,
}

// As row_norm, but the ties are counted in the max pass (wg_max_count), leaving the vec2 pass to carry
// (Σ e^z below the max, Σ e^z·(−z) below the max); e^z = 0 entries are skipped so 0·∞ never appears.
fn entropy_norm(lid: u32, base: u32, n: u32, in_use: bool, tau: f32) -> EntropyNorm {
  var mc = vec2<f32>(neg_inf(), 0.0); // (max, ties of the max)
  for (var c = lid; c < n; c += WG_X) {
    let x = logits[base + c];
    if (x > mc.x) { mc = vec2<f32>(x, 1.0); } else if (x == mc.x) { mc.y += 1.0; }
  }
  mc = wg_max_count(lid, mc);
  let live = in_use && !is_neg_inf(mc.x);
  let shift = select(0.0, mc.x, live);

  var acc = vec2<f32>(0.0, 0.0);
  for (var c = lid; c < n; c += WG_X) {
    let x = logits[base + c];
    if (x != shift) { // the max's ties add e^0 = 1 to S (counted above) and 0 to the second sum
      let z = (x - shift) / tau;
      let e = exp(z);
      if (e > 0.0) { acc += vec2<f32>(e, -e * z); }
    }
  }
  acc = wg_sum2(lid, acc);
  return EntropyNorm(live, shift, acc.x + (mc.y - 1.0), acc.y);
}
