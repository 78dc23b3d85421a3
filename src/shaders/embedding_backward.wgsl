// Embedding backward for one table (wte with token ids, or wpe with position ids), ACCUMULATED and
// deterministic without atomics: the CPU builds a CSR index of the ids (src/kernels/embedding_index.ts):
//   rowIds [U]       the distinct in-range ids, ascending,
//   offsets [U + 1]  rowIds[u]'s occurrences are positions[offsets[u] .. offsets[u + 1]),
//   positions [M]    indices n into the [N] ids, ascending within each id (M ≤ N in-range ids),
// and thread (u, c) computes dW[rowIds[u], c] += Σ_k dout[positions[k], c] in that fixed order. Each (id, c)
// has exactly one writer.
// Shapes: dout [B, T, C] (N = B·T rows); dW [V, C] (or [maxT, C]).
// Guard: GPU data is not trusted: a row id ≥ rows or a position ≥ N is skipped.
// Workgroup: WG_X threads, one (u, c) each (consecutive c: coalesced). Grid: ceil(U·C / WG_X) workgroups,
// linear id over a 2D grid.
// Source: karpathy/llm.c encoder_backward (which uses atomics; this is its deterministic form).
// CPU twin: src/reference/embedding.ts (embeddingBackwardRef).

override WG_X: u32 = 256u;

struct Params {
  n: u32,       // U·C threads
  cols: u32,    // C
  rows: u32,    // V (or maxT): rows of dW
  n_rows: u32,  // N: rows of dout
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> dout: array<f32>;
@group(0) @binding(2) var<storage, read> row_ids: array<u32>;
@group(0) @binding(3) var<storage, read> offsets: array<u32>;
@group(0) @binding(4) var<storage, read> positions: array<u32>;
@group(0) @binding(5) var<storage, read_write> dw: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  let u = i / p.cols;
  let c = i - u * p.cols;
  let id = row_ids[u];
  if (id >= p.rows) { return; }
  let end = offsets[u + 1u];
  var acc = 0.0;
  for (var k = offsets[u]; k < end; k++) {
    let n = positions[k];
    if (n < p.n_rows) { acc += dout[n * p.cols + c]; }
  }
  dw[id * p.cols + c] += acc;
}
