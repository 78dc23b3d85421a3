// Decode-step attention: the newest token of each sequence attends over its KV cache.
// Shapes: q [B, qStride] (the new token's query in columns 0 … C−1; qStride = C for a q tensor, 3C for a fused
//   qkv row), kcache and vcache [B, H, Tmax, hs] (written by kv_append.wgsl), mask [B, Tmax] (1 = real token,
//   0 = padding; prompts may be left-padded), out [B, C] with C = H·hs; head h uses columns h·hs … (h+1)·hs − 1.
// Positions 0 … L−1 are filled; the new token's own k/v must already be at L−1. Key t is visible iff t < L and
//   mask[b, t] ≠ 0 (every cached position precedes the new token, so this is the causal mask's last row).
// out[b, h·hs + d] = Σ_t softmax_t(s)·v[b, h, t, d] with s_t = (q_h · k[b, h, t]) / √hs (Vaswani et al. 2017,
//   eq. 1), max-shifted; a row with no visible key gives zeros.
// Workgroup: WG_X threads (a power of two) per (b, h); threads stride over positions for the scores (kept in
//   workgroup memory, T_MAX = Tmax floats), tree-reduce max and sum, then stride over the hs output columns,
//   each summing over positions in ascending order. One workgroup per (b, h), linear id over a 2D grid.
// CPU twin: src/reference/decode_attention.ts.

override WG_X: u32 = 64u;
override T_MAX: u32 = 64u;

struct Params {
  bh: u32,       // B·H
  H: u32,
  hs: u32,
  L: u32,
  q_stride: u32,
  scale: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> kcache: array<f32>;
@group(0) @binding(3) var<storage, read> vcache: array<f32>;
@group(0) @binding(4) var<storage, read> mask: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;

var<workgroup> s_p: array<f32, T_MAX>;  // scores, then unnormalised probabilities
var<workgroup> s_max: array<f32, WG_X>;
var<workgroup> s_sum: array<f32, WG_X>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * nwg.x; // = b·H + h
  if (g >= p.bh) { return; }
  let b = g / p.H;
  let h = g % p.H;
  let hs = p.hs;
  let q_off = b * p.q_stride + h * hs;
  let kv_off = g * T_MAX * hs;
  var neg_inf_bits = 0xff800000u;
  let neg_inf = bitcast<f32>(neg_inf_bits);

  // 1. Scores of the visible keys (−∞ for hidden ones) and their maximum.
  var m = neg_inf;
  for (var t = lid; t < p.L; t += WG_X) {
    var s = neg_inf;
    if (mask[b * T_MAX + t] != 0.0) {
      var dot = 0.0;
      for (var d = 0u; d < hs; d++) { dot += q[q_off + d] * kcache[kv_off + t * hs + d]; }
      s = dot * p.scale;
      m = max(m, s);
    }
    s_p[t] = s;
  }
  s_max[lid] = m;
  workgroupBarrier();
  for (var w = WG_X / 2u; w > 0u; w >>= 1u) {
    if (lid < w) { s_max[lid] = max(s_max[lid], s_max[lid + w]); }
    workgroupBarrier();
  }
  let mx = s_max[0];

  // 2. e_t = exp(s_t − max) (0 for hidden keys) and their sum.
  var sum = 0.0;
  for (var t = lid; t < p.L; t += WG_X) {
    let s = s_p[t];
    let e = select(exp(s - mx), 0.0, bitcast<u32>(s) == 0xff800000u); // hidden (a bit test: see lib is_neg_inf)
    s_p[t] = e;
    sum += e;
  }
  s_sum[lid] = sum;
  workgroupBarrier();
  for (var w = WG_X / 2u; w > 0u; w >>= 1u) {
    if (lid < w) { s_sum[lid] += s_sum[lid + w]; }
    workgroupBarrier();
  }
  let den = s_sum[0];
  let inv = select(1.0 / den, 0.0, den == 0.0); // no visible key: zeros

  // 3. out = Σ_t e_t · v_t / Σ e, one output column per thread at a time, positions in ascending order.
  let o_off = b * p.H * hs + h * hs;
  for (var d = lid; d < hs; d += WG_X) {
    var acc = 0.0;
    for (var t = 0u; t < p.L; t++) {
      let e = s_p[t];
      if (e != 0.0) { acc += e * vcache[kv_off + t * hs + d]; } // hidden slots are never read (may hold junk)
    }
    out[o_off + d] = acc * inv;
  }
}
