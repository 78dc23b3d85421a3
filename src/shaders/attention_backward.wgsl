// Causal multi-head self-attention, backward, stage 1 of 2 (query rows): dS and dq.
// Shapes: dout [B, T, C], qkv [B, T, 3C] (q = columns [0, C), k = [C, 2C), v = [2C, 3C); hs = C / H),
//   P [B, H, T, T] (forward probabilities, 0 for hidden keys), dqkv [B, T, 3C] (this kernel writes the dq columns
//   [0, C) only, overwriting), dS [B, H, T, T] (scratch, overwritten: ∂L/∂S, the gradient of the softmax
//   input S = q·kᵀ/√hs; 0 where P is 0).
// Equations (softmax Jacobian; out_t = Σ_u P[t, u] v_u, S = q·kᵀ·scale):
//   dP[t, u] = dout_t · v_u,  D_t = Σ_u P[t, u] dP[t, u],  dS[t, u] = P[t, u] (dP[t, u] − D_t),
//   dq_t = scale · Σ_u dS[t, u] k_u.  Keys with P[t, u] = 0 (hidden, or underflowed) contribute exactly 0 and are
//   skipped, so garbage in padding positions is never read.
// Workgroup: WG_X threads (a power of two) per query row (b, h, t): thread j owns keys u ≡ j (mod WG_X) for dP,
//   D (shared-memory tree sum) and dS, then after a storage barrier output dims d ≡ j (mod WG_X) of dq.
// Grid: B·H·T workgroups, linear id g = (b·H + h)·T + t over a 2D grid. Stage 2: attention_backward_kv.wgsl.
// CPU twin: src/reference/attention_backward.ts.

override WG_X: u32 = 64u;

struct Params {
  B: u32,
  T: u32,
  C: u32,
  H: u32,
  hs: u32,
  scale: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> dout: array<f32>;
@group(0) @binding(2) var<storage, read> qkv: array<f32>;
@group(0) @binding(3) var<storage, read> P: array<f32>;
@group(0) @binding(4) var<storage, read_write> dqkv: array<f32>;
@group(0) @binding(5) var<storage, read_write> dS: array<f32>;

var<workgroup> red: array<f32, WG_X>;

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
  let row = g * T; // P[b, h, t, 0]
  let obase = (b * T + t) * p.C + h * hs;

  // 1. dP of the owned keys into the dS row (scratch); local D = Σ P·dP.
  var D = 0.0;
  for (var u = lid; u < T; u += WG_X) {
    let pr = select(0.0, P[row + u], u <= t);
    var dp = 0.0;
    if (pr != 0.0) {
      let vbase = (b * T + u) * C3 + 2u * p.C + h * hs;
      for (var d = 0u; d < hs; d++) { dp += dout[obase + d] * qkv[vbase + d]; }
    }
    dS[row + u] = dp;
    D += pr * dp;
  }
  red[lid] = D;
  workgroupBarrier();
  for (var stride = WG_X / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { red[lid] = red[lid] + red[lid + stride]; }
    workgroupBarrier();
  }
  let Dt = red[0];

  // 2. dS = P (dP − D) for the owned keys, then make the whole dS row visible to every thread.
  for (var u = lid; u < T; u += WG_X) {
    let pr = select(0.0, P[row + u], u <= t);
    dS[row + u] = select(0.0, pr * (dS[row + u] - Dt), pr != 0.0);
  }
  storageBarrier();

  // 3. dq[b, t, h·hs + d] = scale · Σ_u dS[t, u] k[b, u, h·hs + d] for the owned dims d.
  let qout = (b * T + t) * C3 + h * hs;
  for (var d = lid; d < hs; d += WG_X) {
    var acc = 0.0;
    for (var u = 0u; u <= t; u++) {
      let ds = dS[row + u];
      if (ds != 0.0) { acc += ds * qkv[(b * T + u) * C3 + p.C + h * hs + d]; }
    }
    dqkv[qout + d] = p.scale * acc;
  }
}
