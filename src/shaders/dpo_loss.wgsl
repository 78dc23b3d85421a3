// DPO-family preference losses per pair and their gradients w.r.t. the policy's sequence log-probs.
// Pair i < B: chosen sequence at i, rejected at B + i (TRL's concatenated batch). With
//   c_w = (logps[i] − ref[i]) / n_w,  c_l = (logps[B+i] − ref[B+i]) / n_l,  h = c_w − c_l
// (h is TRL's `logits`; ref = 0 for simpo; n_w = |y_w|, n_l = |y_l| (lengths) for ipo and simpo, else 1;
// ℓ is the pair's loss), LOSS selects
//   0 sigmoid: −(1 − ε_ls)·log σ(βh) − ε_ls·log σ(−βh)      dℓ/dh = β(−(1 − ε_ls)σ(−βh) + ε_ls σ(βh))
//   1 hinge:   max(0, 1 − βh)                                 dℓ/dh = −β if βh < 1 else 0
//   2 ipo:     (h − 1/(2β))²                                  dℓ/dh = 2(h − 1/(2β))
//   3 simpo:   −log σ(βh − γ)                                 dℓ/dh = −β σ(γ − βh)
// log σ(z) = −softplus(−z), softplus(x) = max(x, 0) + log1p(e^−|x|) (no overflow; log1p by a series below
// 0.1). Outputs: grad[i] = dℓ/dh / n_w / B, grad[B+i] = −dℓ/dh / n_l / B (the gradient of the mean over pairs
// w.r.t. each sequence's summed log-prob), and per-pair rows terms[k·B + i] (order: src/reference/dpo_loss.ts
// DPO_TERMS): 0 loss, 1 β·c_w, 2 β·c_l, 3 [c_w > c_l], 4 logps[i]/n_w, 5 logps[B+i]/n_l, 6 invalid.
// Invalid pair (then rows 0–5 and both gradients are 0): an input NaN or +∞, a used length < 1, h undefined
// (−∞ − (−∞)), or a loss or gradient that is not finite. A −∞ rejected log-prob is valid where the loss stays
// finite (sigmoid without smoothing, hinge), with rows 2 and 5 at −∞, as src/algorithms/math/dpo.ts.
// Shapes: logps, ref, lengths, grad [2B]; terms [7, B].
// Workgroup: WG_X threads, one pair each; linear workgroup id wid.x + wid.y·nwg.x.
// Source: Rafailov et al. 2023, "Direct Preference Optimization", eq. 7; Mitchell 2023 (cDPO label
// smoothing); Liu et al. 2023, "RSO" (hinge on the reference log-ratio, TRL's; SLiC-HF's, Zhao et al. 2023,
// has no reference); Azar et al. 2023, "A General Theoretical Paradigm…" (IPO,
// eq. 17); Meng et al. 2024, "SimPO", eq. 6; ../shared/docs/algorithms.md, "DPO family".
// CPU twin: src/reference/dpo_loss.ts (dpoLossRef over src/algorithms/math/dpo.ts dpoLossAndGrad).

override WG_X: u32 = 64u;
override LOSS: u32 = 0u;

const T_LOSS = 0u;
const T_REWARDS_CHOSEN = 1u;
const T_REWARDS_REJECTED = 2u;
const T_ACCURACY = 3u;
const T_LOGPS_CHOSEN = 4u;
const T_LOGPS_REJECTED = 5u;
const T_INVALID = 6u;
const K = 7u;

struct Params {
  pairs: u32,
  beta: f32,
  label_smoothing: f32,
  gamma: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logps: array<f32>;
@group(0) @binding(2) var<storage, read> ref_logps: array<f32>;
@group(0) @binding(3) var<storage, read> lengths: array<f32>;
@group(0) @binding(4) var<storage, read_write> grad: array<f32>;
@group(0) @binding(5) var<storage, read_write> terms: array<f32>;

// Exponent bits all ones: ±∞ or NaN. Bit tests, since WGSL lets compilers assume x == x.
fn is_finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

// NaN or +∞: not a log-probability (−∞ is one: probability 0).
fn not_logprob(x: f32) -> bool {
  let b = bitcast<u32>(x);
  return (b & 0x7f800000u) == 0x7f800000u && b != 0xff800000u;
}

fn is_nan(x: f32) -> bool {
  let b = bitcast<u32>(x);
  return (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) != 0u;
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

fn log_sigmoid(z: f32) -> f32 {
  return -softplus(-z);
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
  grad[i] = 0.0;
  grad[B + i] = 0.0;

  let use_ref = LOSS != 3u;
  let per_token = LOSS == 2u || LOSS == 3u;
  let pw = logps[i];
  let pl = logps[B + i];
  var bad = not_logprob(pw) || not_logprob(pl);
  var rw = 0.0;
  var rl = 0.0;
  if (use_ref) {
    rw = ref_logps[i];
    rl = ref_logps[B + i];
    bad = bad || not_logprob(rw) || not_logprob(rl);
  }
  var lw = 1.0;
  var ll = 1.0;
  if (per_token) {
    lw = lengths[i];
    ll = lengths[B + i];
    bad = bad || !(lw >= 1.0) || !(ll >= 1.0) || !is_finite(lw) || !is_finite(ll);
  }
  let cw = (pw - rw) / lw;
  let cl = (pl - rl) / ll;
  let h = cw - cl;
  let beta = p.beta;
  let ls = p.label_smoothing;
  var loss = 0.0;
  var dh = 0.0;
  switch LOSS {
    case 0u: {
      let z = beta * h;
      loss = -(1.0 - ls) * log_sigmoid(z);
      if (ls > 0.0) { loss -= ls * log_sigmoid(-z); }
      dh = beta * (-(1.0 - ls) * sigmoid(-z) + ls * sigmoid(z));
    }
    case 1u: {
      loss = max(0.0, 1.0 - beta * h);
      dh = select(0.0, -beta, beta * h < 1.0);
    }
    case 2u: {
      let d = h - 1.0 / (2.0 * beta);
      loss = d * d;
      dh = 2.0 * d;
    }
    default: {
      loss = -log_sigmoid(beta * h - p.gamma);
      dh = -beta * sigmoid(p.gamma - beta * h);
    }
  }
  let inv_b = 1.0 / f32(B);
  let gw = dh / lw * inv_b;
  let gl = -dh / ll * inv_b;
  // h is NaN when −∞ − (−∞) or +∞ − (+∞) occurred; hinge's max/select would hide it.
  bad = bad || is_nan(cw) || is_nan(cl) || is_nan(h);
  bad = bad || !is_finite(loss) || !is_finite(dh) || !is_finite(gw) || !is_finite(gl);
  if (bad) {
    put(T_INVALID, i, 1.0);
    return;
  }
  grad[i] = gw;
  grad[B + i] = gl;
  put(T_LOSS, i, loss);
  put(T_REWARDS_CHOSEN, i, beta * cw);
  put(T_REWARDS_REJECTED, i, beta * cl);
  put(T_ACCURACY, i, select(0.0, 1.0, cw > cl));
  put(T_LOGPS_CHOSEN, i, pw / lw);
  put(T_LOGPS_REJECTED, i, pl / ll);
}
