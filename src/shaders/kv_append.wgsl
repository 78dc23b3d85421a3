// KV-cache write: copy T consecutive tokens' keys and values from a fused qkv buffer into the caches.
// Shapes: qkv [B, T, 3C] (q = columns [0, C), k = [C, 2C), v = [2C, 3C); head h owns h·hs … (h+1)·hs − 1 of
//   each), kcache and vcache [B, H, Tmax, hs] with C = H·hs (one contiguous [Tmax, hs] block per (b, h), so the
//   decode step reads a head's keys as one run).
// Writes kcache[b, h, pos + t, d] = qkv[b, t, C + h·hs + d] and vcache[b, h, pos + t, d] = qkv[b, t, 2C + h·hs + d]
//   for t < T; nothing else is touched. Prefill: pos = 0, T = prompt length. Decode step: pos = L − 1, T = 1.
// Workgroup: WG_X threads, one (b, t, c) element each (c < C); linear workgroup id over a 2D grid.
// CPU twin: src/reference/kv_append.ts.

override WG_X: u32 = 256u;

struct Params {
  n: u32,    // B·T·C
  T: u32,
  C: u32,
  hs: u32,
  tmax: u32,
  pos: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read_write> kcache: array<f32>;
@group(0) @binding(3) var<storage, read_write> vcache: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  let c = i % p.C;
  let bt = i / p.C;
  let t = bt % p.T;
  let b = bt / p.T;
  let h = c / p.hs;
  let d = c % p.hs;
  let heads = p.C / p.hs;
  let src = bt * 3u * p.C + c;
  let dst = ((b * heads + h) * p.tmax + p.pos + t) * p.hs + d;
  kcache[dst] = qkv[src + p.C];
  vcache[dst] = qkv[src + 2u * p.C];
}
