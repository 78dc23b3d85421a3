// Fill: t[i] = value for i < n (zeroing gradients every step, initialising optimizer state).
// Shapes: t [n] (flat; any 4-byte dtype: the value arrives as its bit pattern, so f32, i32 and u32 all work).
// Workgroup: WG_X threads, one element each. Grid: ceil(n / WG_X) workgroups, linear id wid.x + wid.y·nwg.x over a
//   2D grid (so n may exceed 65535·WG_X), bounds-checked.
// CPU twin: src/reference/fill.ts.

override WG_X: u32 = 256u;

struct Params {
  n: u32,
  bits: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> t: array<u32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  if (i >= p.n) { return; }
  t[i] = p.bits;
}
