// Embedding forward (GPT-2 input): out[n, c] = wte[tokens[n], c] + wpe[positions[n], c].
// Shapes: tokens, positions [B, T] i32 (N = B·T ids; positions are explicit so left-padded prompts work);
// wte [V, C]; wpe [maxT, C]; out [B, T, C].
// Guard: an id outside [0, V) (token) or [0, maxT) (position) contributes 0 for that table: nothing is read
// out of bounds, and a padding id such as −1 embeds as wpe only (or 0 when both are out of range).
// Workgroup: WG_X threads, one output element each. Grid: ceil(N·C / WG_X) workgroups, linear id over 2D.
// Source: Radford et al. 2019 (GPT-2); karpathy/llm.c encoder_forward.
// CPU twin: src/reference/embedding.ts (embeddingRef).

override WG_X: u32 = 256u;

struct Params {
  n: u32,     // N·C output elements
  cols: u32,  // C
  vocab: u32, // V
  max_t: u32, // maxT
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> tokens: array<i32>;
@group(0) @binding(2) var<storage, read> positions: array<i32>;
@group(0) @binding(3) var<storage, read> wte: array<f32>;
@group(0) @binding(4) var<storage, read> wpe: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  let row = i / p.cols;
  let c = i - row * p.cols;
  // bitcast to u32: negative ids become ≥ 2³¹ and fail the same unsigned bounds check.
  let tok = bitcast<u32>(tokens[row]);
  let pos = bitcast<u32>(positions[row]);
  var v = 0.0;
  if (tok < p.vocab) { v = wte[tok * p.cols + c]; }
  if (pos < p.max_t) { v += wpe[pos * p.cols + c]; }
  out[i] = v;
}
