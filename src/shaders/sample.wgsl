// Batched sampling of the next token: tokens[b] ~ softmax(logits[b, :] / τ) restricted to the top-k logits.
// Shapes: logits [B, V] (the last position's logits of each sequence), done [B] u32 (≠ 0: finished),
//   tokens [B] i32, logp [B] f32 = log softmax(logits[b] / τ)[token] over the FULL vocabulary (top-k only
//   restricts which tokens can be drawn; every log-prob of the lab comes from logits / τ, algorithms.md).
// Finished rows (done[b] ≠ 0) get tokens[b] = pad, logp[b] = 0; done is never written.
// logp = (logits_tok/τ − max/τ) − log1p(r), r = Σ over every token but the argmax of e_j (the argmax's e is 1):
//   a near-certain token's log-prob (−2.6e-6) keeps its digits where f32 log(Σ e) lost them.
// Logits may be −∞ (banned tokens: never drawn) but each row needs one finite logit; NaN is not supported.
// Top-k: keep the k largest logits, ties broken by the lower index (topk = 0 or ≥ V keeps all; k = 1 is argmax).
//   The k-th largest logit is found by a bitwise binary search over an order-preserving u32 key (32 counting
//   passes), the tie cut-off index by a second search over index bits (⌈log2(V+1)⌉ passes).
// Randomness: u = (pcg(pcg(seed ^ pcg(step)) + pcg(b)) >> 8) / 2^24 (mod-2^32 add), the PCG hash of Jarzynski &
//   Olano (JCGT 2020): counter-based, so a row's draw depends only on (seed, step, b), never on dispatch order.
// Inverse CDF in ascending index order: token = first kept i with Σ_{kept j ≤ i} e_j > u·Σ_{kept} e_j,
//   e_j = exp(logits_j/τ − max/τ). Each thread owns a contiguous chunk of the row; thread 0 adds the chunk sums
//   in order and picks the chunk holding u·Σ; that chunk's thread walks it.
// Workgroup: WG_X threads (a power of two) per row; one workgroup per row, linear id over a 2D grid.
// Counts use workgroup u32 atomics (integer sums: exact and order-independent, so still deterministic).
// CPU twin: src/reference/sample.ts.

override WG_X: u32 = 64u;

struct Params {
  rows: u32,
  V: u32,
  topk: u32,
  seed: u32,
  step: u32,
  pad: i32,
  temperature: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> done: array<u32>;
@group(0) @binding(3) var<storage, read_write> tokens: array<i32>;
@group(0) @binding(4) var<storage, read_write> logp: array<f32>;

const NONE: u32 = 0xffffffffu;

var<workgroup> s_val: array<f32, WG_X>;   // argmax tree: values
var<workgroup> s_idx: array<u32, WG_X>;   // argmax tree: indices (NONE for an empty chunk)
var<workgroup> s_kept: array<f32, WG_X>;  // per-chunk Σ e over kept tokens
var<workgroup> s_all: array<f32, WG_X>;   // per-chunk Σ e over all tokens
var<workgroup> counts: array<atomic<u32>, 3>;
var<workgroup> s_win: u32;                // the chunk holding the draw
var<workgroup> s_base: f32;               // Σ kept e before that chunk
var<workgroup> s_target: f32;             // u · Σ kept e
var<workgroup> s_log_all: f32;            // log Σ e over the full vocabulary = log1p(r)
var<private> npass: u32 = 0u;

// log(1 + r) for r ≥ 0, accurate for tiny r: as log1p_f32 in src/shaders/lib/reduce_vec2.wgsl (series to r⁶/6
// below 0.1: truncation < 1.5e-8 absolute, ≈ 1.5e-7 relative near r = 0.1; WGSL has no log1p). This shader
// includes no shared piece, so it carries its own copy (test/code/kernel_conformance.test.ts: the same body).
fn log1p_f32(r: f32) -> f32 {
  if (abs(r) < 0.1) {
    return r * (1.0 - r * (0.5 - r * (1.0 / 3.0 - r * (0.25 - r * (0.2 - r * (1.0 / 6.0))))));
  }
  return log(1.0 + r);
}

fn pcg(v: u32) -> u32 {
  let state = v * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

// Order-preserving key: a < b as floats ⇔ key(a) < key(b); −0 and +0 share a key (they are equal logits).
fn order_key(x: f32) -> u32 {
  let bits = bitcast<u32>(select(x, 0.0, x == 0.0));
  return select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
}

// Sum of every thread's `local` over the workgroup. Three counters in rotation: pass n adds into n % 3 while
// thread 0 clears the next one, which nobody reads any more (its readers passed the previous barrier), so one
// barrier per count suffices.
fn count_all(lid: u32, local: u32) -> u32 {
  let slot = npass % 3u;
  if (lid == 0u) { atomicStore(&counts[(npass + 1u) % 3u], 0u); }
  if (local != 0u) { atomicAdd(&counts[slot], local); }
  workgroupBarrier();
  npass += 1u;
  return atomicLoad(&counts[slot]);
}

// Is token i in the top-k set? key > t, or key == t and i ≤ c0 (the first r tokens tied at the threshold).
fn kept(x: f32, i: u32, t: u32, c0: u32) -> bool {
  let k = order_key(x);
  return k > t || (k == t && i <= c0);
}

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  if (done[row] != 0u) {
    if (lid == 0u) { tokens[row] = p.pad; logp[row] = 0.0; }
    return;
  }
  let V = p.V;
  let base = row * V;
  let chunk = (V + WG_X - 1u) / WG_X;
  let lo = min(lid * chunk, V);
  let hi = min(lo + chunk, V);

  // 1. Maximum and argmax (lowest index among ties) of the raw logits.
  var neg_inf_bits = 0xff800000u;
  var best = bitcast<f32>(neg_inf_bits);
  var bi = NONE;
  for (var i = lo; i < hi; i++) {
    let x = logits[base + i];
    if (bi == NONE || x > best) { best = x; bi = i; }
  }
  s_val[lid] = best;
  s_idx[lid] = bi;
  workgroupBarrier();
  for (var s = WG_X / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      let v = s_val[lid + s];
      let j = s_idx[lid + s];
      let a = s_idx[lid];
      if (j != NONE && (a == NONE || v > s_val[lid] || (v == s_val[lid] && j < a))) {
        s_val[lid] = v;
        s_idx[lid] = j;
      }
    }
    workgroupBarrier();
  }
  let xmax = s_val[0];
  let amax = s_idx[0];

  // 2. Top-k threshold (t, c0); uniform branches on p.topk.
  var t = 0u;
  var c0 = NONE;
  if (p.topk == 1u) {
    t = order_key(xmax);
    c0 = amax;
  } else if (p.topk > 1u && p.topk < V) {
    // Largest t with #{key ≥ t} ≥ k: the k-th largest key.
    for (var bit = 32u; bit > 0u; bit--) {
      let cand = t | (1u << (bit - 1u));
      var n = 0u;
      for (var i = lo; i < hi; i++) { n += u32(order_key(logits[base + i]) >= cand); }
      if (count_all(lid, n) >= p.topk) { t = cand; }
    }
    var n_gt = 0u;
    for (var i = lo; i < hi; i++) { n_gt += u32(order_key(logits[base + i]) > t); }
    let r = p.topk - count_all(lid, n_gt); // how many of the tokens tied at t are kept (≥ 1)
    // Largest c0 with #{j ≤ c0 : key_j == t} ≤ r.
    c0 = 0u;
    for (var bit = 32u - countLeadingZeros(V); bit > 0u; bit--) {
      let cand = c0 | (1u << (bit - 1u));
      var n = 0u;
      for (var i = lo; i < min(hi, cand + 1u); i++) { n += u32(order_key(logits[base + i]) == t); }
      if (count_all(lid, n) <= r) { c0 = cand; }
    }
  }

  // 3. Chunk sums of e = exp(z − zmax), z = logits / τ, over kept and over all tokens.
  let zmax = xmax / p.temperature;
  var sk = 0.0;
  var sa = 0.0;
  for (var i = lo; i < hi; i++) {
    let x = logits[base + i];
    let e = exp(x / p.temperature - zmax);
    if (i != amax) { sa += e; } // r: every e but the argmax's e^0 = 1 (its ties included)
    if (kept(x, i, t, c0)) { sk += e; }
  }
  s_kept[lid] = sk;
  s_all[lid] = sa;
  workgroupBarrier();

  // 4. Thread 0: totals in chunk order, the draw, and the chunk holding it.
  if (lid == 0u) {
    var total = 0.0;
    var total_all = 0.0;
    for (var c = 0u; c < WG_X; c++) { total += s_kept[c]; total_all += s_all[c]; }
    let u = f32(pcg(pcg(p.seed ^ pcg(p.step)) + pcg(row)) >> 8u) * (1.0 / 16777216.0);
    let goal = u * total;
    var acc = 0.0;
    var win = NONE;
    var win_base = 0.0;
    var last = 0u;
    var last_base = 0.0;
    for (var c = 0u; c < WG_X; c++) {
      let next = acc + s_kept[c];
      if (s_kept[c] > 0.0) { last = c; last_base = acc; }
      if (win == NONE && goal < next) { win = c; win_base = acc; }
      acc = next;
    }
    if (win == NONE) { win = last; win_base = last_base; } // u·total rounded up to total
    s_win = win;
    s_base = win_base;
    s_target = goal;
    s_log_all = log1p_f32(total_all); // log S, S = 1 + r
  }
  workgroupBarrier();

  // 5. The winning chunk's thread walks it (falling back to its last kept token if rounding overshoots).
  if (lid == s_win) {
    let goal = s_target;
    var acc = s_base;
    var tok = NONE;
    var last = lo;
    for (var i = lo; i < hi; i++) {
      let x = logits[base + i];
      if (!kept(x, i, t, c0)) { continue; }
      let e = exp(x / p.temperature - zmax);
      if (e > 0.0) { last = i; } // the fallback never lands on a zero-probability (−∞ logit) token
      acc += e;
      if (goal < acc) { tok = i; break; }
    }
    if (tok == NONE) { tok = last; }
    tokens[row] = i32(tok);
    logp[row] = (logits[base + tok] / p.temperature - zmax) - s_log_all;
  }
}
