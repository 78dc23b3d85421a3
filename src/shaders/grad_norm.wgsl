// Global L2 norm of a flat buffer, two deterministic stages (no atomics; fixed summation order):
//   stage 1 (FINAL = false): partial[g] = Σ_{i in chunk g} x[i]², chunk g = [g·chunk, min((g+1)·chunk, n));
//   stage 2 (FINAL = true):  out[0] = √(Σ_{g < n} x[g]) over the n partials of stage 1, in one workgroup.
// Shapes: stage 1: x = grads [P] (n = P), out = partials [ceil(P / chunk)]; stage 2: x = partials (n = their
//   count), out = norm [1]. (P, the parameter count, is not a shape letter of the model.)
// Workgroup: WG_X threads (a power of two) per chunk: thread j sums elements j, j + WG_X, ... of its chunk in
//   order, then a shared-memory tree. Grid: stage 1 ceil(n / chunk) workgroups, linear id over a 2D grid; stage 2
//   one workgroup.
// Equation: ‖g‖₂ = √(Σ_i g_i²), the global norm of gradient clipping (Pascanu et al. 2013; PyTorch
//   clip_grad_norm_). CPU twin: src/reference/grad_norm.ts.

override WG_X: u32 = 256u;
override FINAL: bool = false;

struct Params {
  n: u32,
  chunk: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

var<workgroup> red: array<f32, WG_X>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * nwg.x;
  var start = 0u;
  var end = p.n;
  if (!FINAL) {
    start = g * p.chunk;
    if (start >= p.n) { return; } // uniform per workgroup: allowed before the barriers
    end = min(start + p.chunk, p.n);
  }
  var acc = 0.0;
  for (var i = start + lid; i < end; i += WG_X) {
    let v = x[i];
    if (FINAL) { acc += v; } else { acc += v * v; }
  }
  red[lid] = acc;
  workgroupBarrier();
  for (var stride = WG_X / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { red[lid] = red[lid] + red[lid + stride]; }
    workgroupBarrier();
  }
  if (lid == 0u) {
    if (FINAL) { out[0] = sqrt(red[0]); } else { out[g] = red[0]; }
  }
}
