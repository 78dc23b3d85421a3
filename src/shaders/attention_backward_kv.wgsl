// Causal multi-head self-attention, backward, stage 2 of 2 (key columns): dk and dv.
// Shapes: dout [B, T, C], qkv [B, T, 3C] (q = columns [0, C), k = [C, 2C), v = [2C, 3C); hs = C / H),
//   P [B, H, T, T] (forward probabilities), dS [B, H, T, T] (from stage 1, attention_backward.wgsl),
//   dqkv [B, T, 3C]: this kernel writes the dk columns [C, 2C) and dv columns [2C, 3C), overwriting.
// Equations: dk_u = scale · Σ_{t ≥ u} dS[t, u] q_t,  dv_u = Σ_{t ≥ u} P[t, u] dout_t. Entries with P[t, u] = 0
//   (then dS[t, u] = 0 too) are skipped, so padding queries' garbage is never read. Each output is a gather in a
//   fixed order over t: deterministic, no atomics.
// Workgroup: WG_X threads, one output pair (dk, dv)[b, u, h·hs + d] each. Grid: ceil(B·T·H·hs / WG_X) workgroups,
//   linear id over a 2D grid; invocation i = ((b·H + h)·T + u)·hs + d, bounds-checked.
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
@group(0) @binding(4) var<storage, read> dS: array<f32>;
@group(0) @binding(5) var<storage, read_write> dqkv: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  let T = p.T;
  let hs = p.hs;
  if (i >= p.B * p.H * T * hs) { return; }
  let d = i % hs;
  let u = (i / hs) % T;
  let bh = i / (hs * T);
  let h = bh % p.H;
  let b = bh / p.H;
  let C3 = 3u * p.C;
  var dk = 0.0;
  var dv = 0.0;
  for (var t = u; t < T; t++) {
    let e = (bh * T + t) * T + u; // [b, h, t, u]
    let pr = P[e];
    if (pr != 0.0) {
      dk += dS[e] * qkv[(b * T + t) * C3 + h * hs + d];
      dv += pr * dout[(b * T + t) * p.C + h * hs + d];
    }
  }
  let base = (b * T + u) * C3 + h * hs + d;
  dqkv[base + p.C] = p.scale * dk;
  dqkv[base + 2u * p.C] = dv;
}
