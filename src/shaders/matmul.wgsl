// Batched matrix multiply: C[b] = op(A[b]) · op(B[b]) (+ bias) (+ C[b] when ACCUMULATE), op = transpose or not.
// Shapes (row-major, per batch b < batch):
//   A: [M, K], or [K, M] when TRANS_A;  B: [K, N], or [N, K] when TRANS_B;  C: [M, N].
//   bias: [N], added to every row when HAS_BIAS (a linear layer's y = x·Wᵀ + b).
//   Batch strides strideA/B/C are in elements (0 broadcasts one matrix over the batch).
// Workgroup: WG_X × WG_Y = TILE × TILE threads, one C element each; K is walked in TILE-wide shared-memory tiles.
// Grid: [ceil(N/TILE), ceil(M/TILE), batch]. Out-of-range threads load zeros and skip the store.
// CPU twin: src/reference/matmul.ts.

override WG_X: u32 = 16u;
override WG_Y: u32 = 16u;
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

// TILE == WG_X == WG_Y (checked by the TypeScript kernel definition). Tiles are stored row-major with a row
// stride of TILE + 1: a transposed operand's tile is written column-wise (below), and the padding spreads those
// writes over the shared-memory banks.
var<workgroup> tileA: array<f32, WG_X * (WG_Y + 1u)>;
var<workgroup> tileB: array<f32, WG_X * (WG_Y + 1u)>;

fn loadA(base: u32, m: u32, k: u32) -> f32 {
  if (m >= p.M || k >= p.K) { return 0.0; }
  if (TRANS_A) { return A[base + k * p.M + m]; }
  return A[base + m * p.K + k];
}

fn loadB(base: u32, k: u32, n: u32) -> f32 {
  if (k >= p.K || n >= p.N) { return 0.0; }
  if (TRANS_B) { return B[base + n * p.K + k]; }
  return B[base + k * p.N + n];
}

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let T = WG_X;
  let S = T + 1u; // a tile's row stride
  let n0 = wid.x * T;
  let m0 = wid.y * T;
  let n = n0 + lid.x;
  let m = m0 + lid.y;
  let b = wid.z;
  let baseA = b * p.strideA;
  let baseB = b * p.strideB;
  var acc = 0.0;
  for (var k0 = 0u; k0 < p.K; k0 += T) {
    // tileA[r][c] = op(A)[m0 + r][k0 + c], tileB[r][c] = op(B)[k0 + r][n0 + c]. Neighbouring threads (lid.x)
    // read neighbouring addresses: along k for A and along n for B, or, for a transposed operand, along its
    // own rows (m for Aᵀ, k for Bᵀ), writing the tile column-wise (a strided read would cost a memory
    // transaction per thread on a GPU).
    if (TRANS_A) {
      tileA[lid.x * S + lid.y] = loadA(baseA, m0 + lid.x, k0 + lid.y);
    } else {
      tileA[lid.y * S + lid.x] = loadA(baseA, m, k0 + lid.x);
    }
    if (TRANS_B) {
      tileB[lid.x * S + lid.y] = loadB(baseB, k0 + lid.x, n0 + lid.y);
    } else {
      tileB[lid.y * S + lid.x] = loadB(baseB, k0 + lid.y, n);
    }
    workgroupBarrier();
    for (var k = 0u; k < T; k++) {
      acc += tileA[lid.y * S + k] * tileB[k * S + lid.x];
    }
    workgroupBarrier();
  }
  if (m < p.M && n < p.N) {
    let i = b * p.strideC + m * p.N + n;
    if (HAS_BIAS) { acc += bias[n]; }
    if (ACCUMULATE) { C[i] = C[i] + acc; } else { C[i] = acc; }
  }
}
