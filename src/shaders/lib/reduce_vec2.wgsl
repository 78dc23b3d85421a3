// Workgroup reductions over WG_X invocations (shared-memory trees), for the vocabulary-row kernels that reduce
// two values at once (scratch: one vec2<f32> per invocation). Included with `// #include reduce_vec2`
// (src/kernels/wgsl_lib.ts); the including shader declares `override WG_X: u32`, a power of two ≤ 256. Every
// invocation of the workgroup must call these (they hold barriers).

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
