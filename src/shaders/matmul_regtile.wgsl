// Batched matrix multiply, register-tiled variant: C[b] = op(A[b]) · op(B[b]) (+ bias) (+ C[b] when ACCUMULATE).
// Same contract, bindings and parameters as matmul.wgsl; no shared memory and no barriers: each thread keeps a
// 4×4 block of C in registers and streams A and B from global memory (caches do the reuse). Fastest on
// software adapters (SwiftShader), where workgroup barriers are expensive; selectable per adapter.
// Shapes (row-major, per batch b < batch):
//   A: [M, K], or [K, M] when TRANS_A;  B: [K, N], or [N, K] when TRANS_B;  C: [M, N];  bias: [N] when HAS_BIAS.
// Workgroup: WG_X × WG_Y threads; each covers 4 columns × 4 rows, so a workgroup covers (4·WG_X) × (4·WG_Y).
// Grid: [ceil(N/(4·WG_X)), ceil(M/(4·WG_Y)), batch].
// CPU twin: src/reference/matmul.ts.

override WG_X: u32 = 8u;
override WG_Y: u32 = 8u;
override TRANS_A: bool = false;
override TRANS_B: bool = false;
override ACCUMULATE: bool = false;
override HAS_BIAS: bool = false;

struct Params {
  M: u32,
  N: u32,
  K: u32,
  strideA: u32,
  strideB: u32,
  strideC: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> A: array<f32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;

fn loadA(base: u32, m: u32, k: u32) -> f32 {
  if (m >= p.M) { return 0.0; }
  if (TRANS_A) { return A[base + k * p.M + m]; }
  return A[base + m * p.K + k];
}

fn loadB(base: u32, k: u32, n: u32) -> f32 {
  if (n >= p.N) { return 0.0; }
  if (TRANS_B) { return B[base + n * p.K + k]; }
  return B[base + k * p.N + n];
}

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let n0 = (wid.x * WG_X + lid.x) * 4u;
  let m0 = (wid.y * WG_Y + lid.y) * 4u;
  let b = wid.z;
  if (n0 >= p.N || m0 >= p.M) { return; }
  let baseA = b * p.strideA;
  let baseB = b * p.strideB;
  var acc: array<vec4<f32>, 4>;
  for (var k = 0u; k < p.K; k++) {
    let bv = vec4<f32>(loadB(baseB, k, n0), loadB(baseB, k, n0 + 1u), loadB(baseB, k, n0 + 2u), loadB(baseB, k, n0 + 3u));
    for (var i = 0u; i < 4u; i++) {
      acc[i] += loadA(baseA, m0 + i, k) * bv;
    }
  }
  for (var i = 0u; i < 4u; i++) {
    let m = m0 + i;
    if (m >= p.M) { break; }
    for (var j = 0u; j < 4u; j++) {
      let n = n0 + j;
      if (n >= p.N) { break; }
      var v = acc[i][j];
      if (HAS_BIAS) { v += bias[n]; }
      let idx = b * p.strideC + m * p.N + n;
      if (ACCUMULATE) { C[idx] = C[idx] + v; } else { C[idx] = v; }
    }
  }
}
