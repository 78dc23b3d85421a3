// Elementwise ops: out[i] = op(a[i], b[i]) for i < n.
// Shapes: a, b, out: [n] (flat). b is ignored by unary ops (bind any tensor).
// Workgroup: WG_X threads, one element each; linear workgroup id over a 2D grid (dispatches > 65535 groups).
// OP: 0 add, 1 sub, 2 mul, 3 axpy (alpha·a + b), 4 scale (alpha·a), 5 exp, 6 relu, 7 copy.
// CPU twin: src/reference/elementwise.ts.

override WG_X: u32 = 256u;
override OP: u32 = 0u;

struct Params {
  n: u32,
  alpha: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  let x = a[i];
  var y: f32;
  switch OP {
    case 0u: { y = x + b[i]; }
    case 1u: { y = x - b[i]; }
    case 2u: { y = x * b[i]; }
    case 3u: { y = p.alpha * x + b[i]; }
    case 4u: { y = p.alpha * x; }
    case 5u: { y = exp(x); }
    case 6u: { y = max(x, 0.0); }
    default: { y = x; }
  }
  out[i] = y;
}
