// Causal multi-head self-attention, forward, fused: scores, masked max-shifted softmax and P·V in one kernel.
// Shapes: qkv [B, T, 3C] (q = columns [0, C), k = [C, 2C), v = [2C, 3C); head h uses h·hs .. (h+1)·hs − 1 of each,
//   hs = C / H), mask [B, T] (1 = real token, 0 = padding; read only when MASKED), out [B, T, C],
//   P [B, H, T, T] (softmax probabilities, saved for the backward pass; zero where a key is hidden).
// Equation (Vaswani et al. 2017, eq. 1): S[t, u] = (q_t · k_u) / √hs for visible keys u (u ≤ t and mask[b, u] = 1),
//   P[t, u] = exp(S[t, u] − max_u S[t, :]) / Σ_u exp(...), out_t = Σ_u P[t, u] v_u. A query with no visible key
//   (a padding query at the start of a left-padded row) gets P[t, :] = 0 and out_t = 0. Hidden keys are never
//   read (garbage, even NaN, in padding positions cannot leak).
// Workgroup: WG_X threads (a power of two) per query row (b, h, t). Thread j owns keys u ≡ j (mod WG_X) for the
//   scores, the max and the sum (shared-memory trees); the row of P doubles as score scratch, so T and hs have no
//   size limit. After a storage barrier thread j computes output dims d ≡ j (mod WG_X) from the finished P row.
// Grid: B·H·T workgroups, linear id g = (b·H + h)·T + t over a 2D grid (may exceed 65535).
// CPU twin: src/reference/attention.ts.

override WG_X: u32 = 64u;
override MASKED: bool = true;

struct Params {
  B: u32,
  T: u32,
  C: u32,
  H: u32,
  hs: u32,
  scale: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read_write> P: array<f32>;

var<workgroup> red: array<f32, WG_X>;

/** Key u is visible from query t of batch row b. */
fn visible(b: u32, t: u32, u: u32) -> bool {
  if (u > t) { return false; }
  if (MASKED) { return mask[b * p.T + u] > 0.5; }
  return true;
}

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * nwg.x;
  if (g >= p.B * p.H * p.T) { return; } // uniform per workgroup: allowed before the barriers
  let T = p.T;
  let hs = p.hs;
  let t = g % T;
  let h = (g / T) % p.H;
  let b = g / (T * p.H);
  let C3 = 3u * p.C;
  let qbase = (b * T + t) * C3 + h * hs;
  let row = g * T; // P[b, h, t, 0]

  // 1. Raw scores of the owned keys into the P row; local max over visible ones (finite sentinel: no infinities).
  var mx = -3.0e38;
  for (var u = lid; u < T; u += WG_X) {
    var s = 0.0;
    if (visible(b, t, u)) {
      let kbase = (b * T + u) * C3 + p.C + h * hs;
      var dot = 0.0;
      for (var d = 0u; d < hs; d++) { dot += qkv[qbase + d] * qkv[kbase + d]; }
      s = dot * p.scale;
      mx = max(mx, s);
    }
    P[row + u] = s;
  }
  red[lid] = mx;
  workgroupBarrier();
  for (var stride = WG_X / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { red[lid] = max(red[lid], red[lid + stride]); }
    workgroupBarrier();
  }
  let m = red[0];
  workgroupBarrier(); // everyone has read red[0] before it is reused

  // 2. exp(s − max) of the owned keys (0 for hidden keys) and their local sum.
  var sum = 0.0;
  for (var u = lid; u < T; u += WG_X) {
    var e = 0.0;
    if (visible(b, t, u)) { e = exp(P[row + u] - m); }
    P[row + u] = e;
    sum += e;
  }
  red[lid] = sum;
  workgroupBarrier();
  for (var stride = WG_X / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { red[lid] = red[lid] + red[lid + stride]; }
    workgroupBarrier();
  }
  // sum ≥ 1 when any key is visible (the max term is exp(0)); 0 when none is: then P and out stay zero.
  let total = red[0];
  let inv = select(0.0, 1.0 / total, total > 0.0);

  // 3. Normalise the owned entries, then make the whole P row visible to every thread of the workgroup.
  for (var u = lid; u < T; u += WG_X) { P[row + u] = P[row + u] * inv; }
  storageBarrier();

  // 4. out[b, t, h·hs + d] = Σ_{visible u} P[t, u] · v[b, u, h·hs + d], for the owned dims d.
  let obase = (b * T + t) * p.C + h * hs;
  for (var d = lid; d < hs; d += WG_X) {
    var acc = 0.0;
    for (var u = 0u; u <= t; u++) {
      if (visible(b, t, u)) { acc += P[row + u] * qkv[(b * T + u) * C3 + 2u * p.C + h * hs + d]; }
    }
    out[obase + d] = acc;
  }
}
