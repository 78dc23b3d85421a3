// Generation bookkeeping after one sampling step s (0-based index of the new token among the generated ones):
//   for each row b not yet done: out_tokens[b, s] = token[b]; out_logp[b, s] = logp[b]; lengths[b] = s + 1;
//                                done[b] = 1 if token[b] == EOS.
//   rows already done: out_tokens[b, s] = PAD, out_logp[b, s] = 0 (sample() already wrote PAD / 0 for them).
// So true lengths (EOS included) are recorded on the GPU and masks come from lengths, not from token ids.
// Shapes: token [B] i32, logp [B] f32, done [B] u32, lengths [B] u32, out_tokens [B, S] i32, out_logp [B, S] f32.
// Workgroup: WG_X threads, one row each; the row index spans a dispatch split over y (past 65,535 workgroups).
// CPU twin: src/reference/gen_bookkeep.ts.

override WG_X: u32 = 64u;

struct Params {
  B: u32,
  S: u32,
  s: u32,
  eos: i32,
  pad: i32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> token: array<i32>;
@group(0) @binding(2) var<storage, read> logp: array<f32>;
@group(0) @binding(3) var<storage, read_write> done: array<u32>;
@group(0) @binding(4) var<storage, read_write> lengths: array<u32>;
@group(0) @binding(5) var<storage, read_write> out_tokens: array<i32>;
@group(0) @binding(6) var<storage, read_write> out_logp: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let b = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (b >= p.B) { return; }
  let o = b * p.S + p.s;
  if (done[b] != 0u) {
    out_tokens[o] = p.pad;
    out_logp[o] = 0.0;
    return;
  }
  let t = token[b];
  out_tokens[o] = t;
  out_logp[o] = logp[b];
  lengths[b] = p.s + 1u;
  if (t == p.eos) { done[b] = 1u; }
}
