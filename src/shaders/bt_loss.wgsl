// Bradley–Terry reward-model loss per pair, read from the reward head at each sequence's last real token, and
// its gradient scattered back to those positions.
// Pair i < B: the chosen sequence's score is r_w = rewards[index[i]], the rejected one's r_l =
// rewards[index[B + i]] (index: flat row b·T + t of the sequence's last non-pad token, EOS included; chosen
// rows first, then rejected, TRL's concatenated batch). With d = r_w − r_l and s = r_w + r_l:
//   loss_i = −log σ(d) + η·s² = softplus(−d) + η·s²
//   dL/dr_w = (−σ(−d) + 2ηs) / B,  dL/dr_l = (σ(−d) + 2ηs) / B   (L = mean over pairs)
// written to drewards[index[i]] and drewards[index[B + i]]; every other element of drewards is left as it is
// (the wrapper zero-fills it first). Per-pair rows terms[k·B + i] (order: src/reference/bt_loss.ts
// BT_TERMS): 0 loss, 1 [d > 0] (ties count as wrong), 2 d, 3 r_w, 4 r_l, 5 invalid.
// Invalid pair (rows 0–4 and both gradients 0): an index outside [0, n), or a score that is not finite.
// Indices must be distinct (each sequence is one row of the batch); equal indices would race.
// softplus(x) = max(x, 0) + log1p(e^−|x|) (no overflow; log1p by a series below 0.1).
// Shapes: rewards, drewards [n] (n = 2B·T, the reward head at every position), index [2B] i32, terms [6, B].
// Workgroup: WG_X threads, one pair each; linear workgroup id wid.x + wid.y·nwg.x.
// Source: Bradley & Terry 1952; Ouyang et al. 2022, "Training language models to follow instructions with
// human feedback", eq. 1; Eisenstein et al. 2023 (centring η); ../shared/docs/algorithms.md, "Reward model".
// CPU twin: src/reference/bt_loss.ts (btLossRef over src/algorithms/math/reward_model.ts).

override WG_X: u32 = 64u;

const T_LOSS = 0u;
const T_ACCURACY = 1u;
const T_MARGIN = 2u;
const T_CHOSEN = 3u;
const T_REJECTED = 4u;
const T_INVALID = 5u;
const K = 6u;

struct Params {
  pairs: u32,
  n: u32,
  eta: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> rewards: array<f32>;
@group(0) @binding(2) var<storage, read> index: array<i32>;
@group(0) @binding(3) var<storage, read_write> drewards: array<f32>;
@group(0) @binding(4) var<storage, read_write> terms: array<f32>;

// Exponent bits all ones: ±∞ or NaN. A bit test, since WGSL lets compilers assume x == x.
fn is_finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

// log(1 + e) for e ∈ [0, 1]: alternating series to e⁶/6 below 0.1 (truncation e⁷/7 < 1.5e-8 absolute, ≈ 1.5e-7
// relative near e = 0.1), else direct.
fn log1p_unit(e: f32) -> f32 {
  if (e < 0.1) {
    return e * (1.0 - e * (0.5 - e * (1.0 / 3.0 - e * (0.25 - e * (0.2 - e * (1.0 / 6.0))))));
  }
  return log(1.0 + e);
}

fn softplus(x: f32) -> f32 {
  return max(x, 0.0) + log1p_unit(exp(-abs(x)));
}

fn sigmoid(z: f32) -> f32 {
  if (z >= 0.0) { return 1.0 / (1.0 + exp(-z)); }
  let e = exp(z);
  return e / (1.0 + e);
}

fn put(k: u32, i: u32, v: f32) {
  terms[k * p.pairs + i] = v;
}

@compute @workgroup_size(WG_X)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG_X + lid;
  let B = p.pairs;
  if (i >= B) { return; }
  for (var k = 0u; k < K; k++) { put(k, i, 0.0); }
  let iw = index[i];
  let il = index[B + i];
  if (iw < 0 || il < 0 || u32(iw) >= p.n || u32(il) >= p.n) {
    put(T_INVALID, i, 1.0);
    return;
  }
  let rw = rewards[u32(iw)];
  let rl = rewards[u32(il)];
  let d = rw - rl;
  let s = rw + rl;
  let loss = softplus(-d) + p.eta * s * s;
  let sig = sigmoid(-d);
  let inv_b = 1.0 / f32(B);
  let gw = (-sig + 2.0 * p.eta * s) * inv_b;
  let gl = (sig + 2.0 * p.eta * s) * inv_b;
  if (!is_finite(rw) || !is_finite(rl) || !is_finite(loss) || !is_finite(gw) || !is_finite(gl)) {
    put(T_INVALID, i, 1.0);
    return;
  }
  drewards[u32(iw)] = gw;
  drewards[u32(il)] = gl;
  put(T_LOSS, i, loss);
  put(T_ACCURACY, i, select(0.0, 1.0, d > 0.0));
  put(T_MARGIN, i, d);
  put(T_CHOSEN, i, rw);
  put(T_REJECTED, i, rl);
}
