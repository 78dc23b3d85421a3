// Workgroup reductions over WG_X invocations (shared-memory trees) for the vocabulary-row kernels, which reduce
// up to two values at once (scratch: one vec2<f32> per invocation), and their accurate log1p. Included with
// `// #include reduce_vec2` (src/kernels/wgsl_lib.ts); the including shader declares `override WG_X: u32`, a
// power of two ≤ 256. Every invocation of the workgroup must call the reductions (they hold barriers).

var<workgroup> scratch: array<vec2<f32>, WG_X>;

fn neg_inf() -> f32 {
  var bits = 0xff800000u; // built at run time: a constant-expression −∞ does not compile
  return bitcast<f32>(bits);
}

// Whether x is −∞, by its bits: WGSL lets compilers assume floats are finite (fast math), so `x == −∞` may be
// folded away; a bit test cannot be.
fn is_neg_inf(x: f32) -> bool {
  return bitcast<u32>(x) == 0xff800000u;
}

// Max of v over the workgroup, returned to every invocation.
fn wg_max(lid: u32, v: f32) -> f32 {
  if (WG_X == 1u) { return v; }
  scratch[lid].x = v;
  workgroupBarrier();
  for (var s = WG_X / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { scratch[lid].x = max(scratch[lid].x, scratch[lid + s].x); }
    workgroupBarrier();
  }
  let r = scratch[0].x;
  workgroupBarrier();
  return r;
}

// Componentwise max of v over the workgroup, returned to every invocation.
fn wg_max2(lid: u32, v: vec2<f32>) -> vec2<f32> {
  if (WG_X == 1u) { return v; }
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = WG_X / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { scratch[lid] = max(scratch[lid], scratch[lid + s]); }
    workgroupBarrier();
  }
  let r = scratch[0];
  workgroupBarrier();
  return r;
}

// Componentwise sum of v over the workgroup (fixed tree: bit-identical run to run).
fn wg_sum2(lid: u32, v: vec2<f32>) -> vec2<f32> {
  if (WG_X == 1u) { return v; }
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = WG_X / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { scratch[lid] = scratch[lid] + scratch[lid + s]; }
    workgroupBarrier();
  }
  let r = scratch[0];
  workgroupBarrier();
  return r;
}

// (max, count of entries equal to it) over the workgroup, from each invocation's own (max, count): the ties of
// the row's maximum, counted in the max pass (entropy, whose sum pass already carries two values).
fn wg_max_count(lid: u32, v: vec2<f32>) -> vec2<f32> {
  if (WG_X == 1u) { return v; }
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = WG_X / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      let a = scratch[lid];
      let b = scratch[lid + s];
      let m = max(a.x, b.x);
      scratch[lid] = vec2<f32>(m, select(0.0, a.y, a.x == m) + select(0.0, b.y, b.x == m));
    }
    workgroupBarrier();
  }
  let r = scratch[0];
  workgroupBarrier();
  return r;
}

// log(1 + r) for r ≥ 0, accurate for tiny r (WGSL has no log1p; f32 log(1 + r) loses r below ~6e-8 and most of
// its digits below ~1e-4): the alternating series to r⁶/6 below 0.1, else log(1 + r), as log1p_unit in
// bt_loss.wgsl. Its truncation, the first term left out (r⁷/7), is < 1.5e-8 absolute but r⁶/7 ≈ 1.5e-7 relative
// near r = 0.1 (about 1.3 f32 ulp; measured in f32: −1.25e-7 at r = 0.0999), less below (1.4e-13 at r = 0.01). (Goldberg's log(u)·r/(u − 1), u = 1 + r, is no use here: compilers that
// reassociate floats, SwiftShader's among them, fold (1 + r) − 1 to r and leave log(u).)
// The vocabulary-row kernels write a normaliser S = Σ_v e^{z_v} (max entry e^0 = 1) as 1 + r, r = Σ of the
// entries below the max + (ties − 1), so log S = log1p_f32(r) keeps a near-certain token's log-prob, the entropy
// and the KL near 0 accurate. r = −1 (an empty row, whose log S no kernel uses) gives −∞, as log 0 did.
fn log1p_f32(r: f32) -> f32 {
  if (abs(r) < 0.1) {
    return r * (1.0 - r * (0.5 - r * (1.0 / 3.0 - r * (0.25 - r * (0.2 - r * (1.0 / 6.0))))));
  }
  return log(1.0 + r);
}
