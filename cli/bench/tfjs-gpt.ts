/**
 * The GPT of src/model written a second time with TF.js ops (tfjs-core, whatever backend is active): the
 * independent implementation for whole-model checks (logits, autodiff gradients) and the benchmark's peer for a
 * full train step. The math is src/reference/gpt.ts's: y = x·Wᵀ + b with W [out, in]; LayerNorm with biased
 * variance and eps = config.lnEps; GELU, tanh approximation; causal attention in which query t sees keys u ≤ t
 * whose keyMask is 1, and a query with no visible key outputs zeros; tied or untied LM head; value and reward
 * heads. Gradients come from TF.js autodiff (tf.variableGrads), not from our backward kernels.
 * Shape letters: B batch, T time, N = B·T, C nEmbd, H heads, hs = C/H, V vocabulary.
 */
import type { Scalar, Tensor, Tensor1D, Tensor2D, Tensor4D, Variable } from "@tensorflow/tfjs-core";
import type { HostBatch } from "../../src/model/batch";
import type { GPTConfig } from "../../src/model/config";
import { type ParamLayout, paramLayout } from "../../src/model/params";
import type { Tf } from "./tfjs-peer";

/**
 * Added to the attention score of a key a query must not see. Finite, so a query with no visible key gets a
 * finite (uniform) softmax row instead of NaN; that row is then multiplied by 0 (see `hasKey`). exp(−1e9 − max)
 * underflows to exactly 0 in f32, so masked keys get probability 0 and no gradient.
 */
const MASKED_SCORE = -1e9;

/** The model's parameters as TF.js variables, one per tensor of our flat layout, keyed by our (GPT-2) names. */
export interface TfGpt {
  readonly tf: Tf;
  readonly config: GPTConfig;
  readonly layout: ParamLayout;
  readonly vars: Map<string, Variable>;
}

let modelCount = 0;

/**
 * Register TF.js's gradient definitions (idempotent). tfjs-core's Node bundle, which `import("@tensorflow/tfjs-core")`
 * gets, has none (the @tensorflow/tfjs union package registers them); they live in its ESM build, whose
 * extensionless relative imports Node's resolver refuses, hence the small resolve hook (tfjs-grad-hooks.mjs).
 * Vitest transforms that build itself. The registry is global, so the bundle's autodiff finds them.
 */
export async function registerTfGradients(tf: Tf): Promise<void> {
  if (tf.getGradient("Add")) return;
  if (!process.env.VITEST) {
    const { register } = await import("node:module");
    register("./tfjs-grad-hooks.mjs", import.meta.url);
  }
  await import("@tensorflow/tfjs-core/dist/register_all_gradients");
  if (!tf.getGradient("Add")) throw new Error("TF.js gradients did not register");
}

/**
 * TF.js variables holding `flat` (laid out by paramLayout(config); padding ignored), with TF.js's gradients
 * registered. Variable names are `gpt{k}/{name}` (TF.js names are global per engine, so every model gets its
 * own k). Dispose with {@link disposeTfGpt}.
 * @throws RangeError if flat.length differs from the layout size.
 */
export async function tfGptFromFlat(tf: Tf, config: GPTConfig, flat: Float32Array): Promise<TfGpt> {
  await registerTfGradients(tf);
  const layout = paramLayout(config);
  if (flat.length !== layout.size)
    throw new RangeError(`params have ${flat.length} values; layout needs ${layout.size}`);
  const id = modelCount++;
  const vars = new Map<string, Variable>();
  for (const s of layout.specs) {
    const n = s.shape.reduce((a, b) => a * b, 1);
    const value = tf.tensor(flat.slice(s.offset, s.offset + n), s.shape, "float32");
    vars.set(s.name, tf.variable(value, true, `gpt${id}/${s.name}`));
    value.dispose();
  }
  return { tf, config, layout, vars };
}

export function disposeTfGpt(m: TfGpt): void {
  for (const v of m.vars.values()) v.dispose();
}

/** Copy named tensors (parameters or gradients, keyed by our names) into a flat array in our layout; missing → 0. */
export async function toFlat(
  layout: ParamLayout,
  byName: (name: string) => Tensor | undefined,
): Promise<Float32Array> {
  const out = new Float32Array(layout.size);
  for (const s of layout.specs) {
    const t = byName(s.name);
    if (t) out.set((await t.data()) as Float32Array, s.offset);
  }
  return out;
}

/** The model's current parameters, flat, in our layout. */
export function tfParamsFlat(m: TfGpt): Promise<Float32Array> {
  return toFlat(m.layout, (name) => m.vars.get(name));
}

/** A batch as TF.js constants: ids, the additive attention mask and the "has a visible key" row mask. */
interface TfInputs {
  /** [N] int32 token and position ids. */
  tokens: Tensor1D;
  positions: Tensor1D;
  /** [B, 1, T, T] 0 where query t may see key u (u ≤ t and keyMask[b, u] = 1), MASKED_SCORE elsewhere. */
  scoreBias: Tensor4D;
  /** [B, 1, T, 1] 1 where query t sees at least one key, else 0 (its attention output is zeros). */
  hasKey: Tensor4D;
}

function tfInputs(tf: Tf, batch: HostBatch): TfInputs {
  const { B, T, keyMask } = batch;
  const bias = new Float32Array(B * T * T).fill(MASKED_SCORE);
  const hasKey = new Float32Array(B * T);
  for (let b = 0; b < B; b++)
    for (let t = 0; t < T; t++)
      for (let u = 0; u <= t; u++)
        if (keyMask[b * T + u]) {
          bias[(b * T + t) * T + u] = 0;
          hasKey[b * T + t] = 1;
        }
  return {
    tokens: tf.tensor1d(batch.tokens, "int32"),
    positions: tf.tensor1d(batch.positions, "int32"),
    scoreBias: tf.tensor4d(bias, [B, 1, T, T]),
    hasKey: tf.tensor4d(hasKey, [B, 1, T, 1]),
  };
}

export interface TfGptOutput {
  /** [N, V] LM logits. */
  logits: Tensor2D;
  /** [N] value head and reward head outputs. */
  values: Tensor1D;
  rewards: Tensor1D;
}

/** The forward pass (call inside tf.tidy or dispose the outputs). */
function forward(m: TfGpt, batch: HostBatch, x0: TfInputs): TfGptOutput {
  const { tf, config: cfg } = m;
  const { B, T } = batch;
  const N = B * T;
  const C = cfg.nEmbd;
  const H = cfg.nHead;
  const hs = C / H;
  const p = (name: string): Tensor => {
    const v = m.vars.get(name);
    if (!v) throw new RangeError(`no parameter named "${name}"`);
    return v;
  };
  /** y [N, out] = x [N, in]·Wᵀ + b. */
  const linear = (x: Tensor2D, w: string, b: string | null): Tensor2D => {
    const y: Tensor2D = tf.matMul(x, p(w), false, true);
    return b ? tf.add<Tensor2D>(y, p(b)) : y;
  };
  const layerNorm = (x: Tensor2D, w: string, b: string): Tensor2D => {
    const { mean, variance } = tf.moments(x, -1, true);
    const xhat = tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, cfg.lnEps)));
    return tf.add(tf.mul(xhat, p(w)), p(b));
  };
  /** 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). */
  const gelu = (x: Tensor2D): Tensor2D => {
    const inner = tf.mul(tf.add(x, tf.mul(tf.pow(x, 3), 0.044715)), Math.sqrt(2 / Math.PI));
    return tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(inner), 1));
  };
  /** [N, C] → [B, H, T, hs]. */
  const heads = (x: Tensor2D): Tensor4D => tf.transpose(tf.reshape(x, [B, T, H, hs]), [0, 2, 1, 3]);

  let x: Tensor2D = tf.add(tf.gather(p("wte.weight"), x0.tokens), tf.gather(p("wpe.weight"), x0.positions));
  for (let l = 0; l < cfg.nLayer; l++) {
    const h = `h.${l}`;
    const qkv = linear(
      layerNorm(x, `${h}.ln_1.weight`, `${h}.ln_1.bias`),
      `${h}.attn.c_attn.weight`,
      `${h}.attn.c_attn.bias`,
    );
    const [q, k, v] = tf.split(qkv, 3, 1).map((t) => heads(t as Tensor2D));
    // scores [B, H, T, T] = q·kᵀ/√hs; masked keys get probability 0, key-less queries output zeros.
    const scores = tf.add(tf.div(tf.matMul(q, k, false, true), Math.sqrt(hs)), x0.scoreBias);
    const probs = tf.mul(tf.softmax(scores), x0.hasKey);
    const att = tf.reshape(tf.transpose(tf.matMul(probs, v), [0, 2, 1, 3]), [N, C]) as Tensor2D;
    x = tf.add(x, linear(att, `${h}.attn.c_proj.weight`, `${h}.attn.c_proj.bias`));
    const fc = gelu(
      linear(
        layerNorm(x, `${h}.ln_2.weight`, `${h}.ln_2.bias`),
        `${h}.mlp.c_fc.weight`,
        `${h}.mlp.c_fc.bias`,
      ),
    );
    x = tf.add(x, linear(fc, `${h}.mlp.c_proj.weight`, `${h}.mlp.c_proj.bias`));
  }
  const lnf = layerNorm(x, "ln_f.weight", "ln_f.bias");
  return {
    logits: linear(lnf, cfg.tiedEmbeddings ? "wte.weight" : "lm_head.weight", null),
    values: tf.reshape(linear(lnf, "value_head.weight", "value_head.bias"), [N]),
    rewards: tf.reshape(linear(lnf, "reward_head.weight", "reward_head.bias"), [N]),
  };
}

/** Forward pass of `batch` (left-padded, as from leftPadBatch); the caller disposes the outputs. */
export function tfGptForward(m: TfGpt, batch: HostBatch): TfGptOutput {
  const inputs = tfInputs(m.tf, batch);
  const out = m.tf.tidy(() => {
    const o = forward(m, batch, inputs);
    return [o.logits, o.values, o.rewards];
  });
  for (const t of Object.values(inputs)) t.dispose();
  return { logits: out[0] as Tensor2D, values: out[1] as Tensor1D, rewards: out[2] as Tensor1D };
}

/**
 * What the loss is made of: the mean next-token cross-entropy over positions whose target ≥ 0 (−1 = ignore), as
 * SftTrainer's, plus optional linear terms Σ_n dvalues[n]·value[n] + Σ_n drewards[n]·reward[n], whose gradients
 * w.r.t. the heads' outputs are exactly dvalues / drewards (what gptBackward takes in acts.dvalues/drewards).
 */
export interface TfLossSpec {
  /** [N] next-token targets, −1 = ignore; at least one ≥ 0. */
  targets: Int32Array;
  /** [N] optional weights of the value-head and reward-head terms. */
  dvalues?: Float32Array;
  drewards?: Float32Array;
}

/** The scalar loss of `spec` on the forward outputs (inside a tidy / gradient scope). */
function loss(tf: Tf, out: TfGptOutput, spec: TfLossSpec, V: number): Scalar {
  const { targets } = spec;
  const count = targets.reduce((n, t) => n + (t >= 0 ? 1 : 0), 0);
  if (!count) throw new RangeError("no position has a target");
  // [N, V] one-hot of the target, 0 on ignored rows: −Σ_n Σ_v pick·log softmax / count.
  const pick = tf.mul(
    tf.oneHot(
      tf.tensor1d(
        targets.map((t) => Math.max(t, 0)),
        "int32",
      ),
      V,
    ),
    tf.tensor2d(
      Float32Array.from(targets, (t) => (t >= 0 ? 1 : 0)),
      [targets.length, 1],
    ),
  );
  let l: Scalar = tf.div(tf.neg(tf.sum(tf.mul(pick, tf.logSoftmax(out.logits)))), count);
  if (spec.dvalues) l = tf.add(l, tf.sum(tf.mul(out.values, tf.tensor1d(spec.dvalues))));
  if (spec.drewards) l = tf.add(l, tf.sum(tf.mul(out.rewards, tf.tensor1d(spec.drewards))));
  return l;
}

/** A loss closure over `batch` for autodiff / optimizers; returns the inputs to dispose afterwards. */
function lossFn(m: TfGpt, batch: HostBatch, spec: TfLossSpec): { f: () => Scalar; inputs: TfInputs } {
  const inputs = tfInputs(m.tf, batch);
  return { f: () => loss(m.tf, forward(m, batch, inputs), spec, m.config.vocabSize), inputs };
}

/**
 * The loss and dLoss/dθ for every parameter by TF.js autodiff, flat in OUR layout (tied LM head: wte's gradient
 * holds both the embedding and the head contributions; parameters the loss does not reach get 0).
 */
export async function tfLossAndGrads(
  m: TfGpt,
  batch: HostBatch,
  spec: TfLossSpec,
): Promise<{ loss: number; grads: Float32Array }> {
  const { f, inputs } = lossFn(m, batch, spec);
  const { value, grads } = m.tf.variableGrads(f, [...m.vars.values()]);
  const tfName = new Map([...m.vars].map(([name, v]) => [name, v.name]));
  const flat = await toFlat(m.layout, (name) => grads[tfName.get(name) ?? ""]);
  const l = (await value.data())[0];
  value.dispose();
  for (const g of Object.values(grads)) g.dispose();
  for (const t of Object.values(inputs)) t.dispose();
  return { loss: l, grads: flat };
}

/** Adam's hyperparameters; defaults are ours (ADAMW_DEFAULTS): β1 0.9, β2 0.95, eps 1e-8. */
export interface TfAdamConfig {
  lr: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
}

/**
 * A train step with TF.js's Adam (tf.train.adam): forward + cross-entropy + autodiff backward + update. NOTE:
 * TF.js's Adam is plain Adam (Kingma & Ba 2015), NOT AdamW: it has no decoupled weight decay and no gradient
 * clipping; the update θ ← θ − lr·m̂/(√v̂ + eps) is otherwise ours, so compare with weightDecay 0 (and
 * maxGradNorm ≤ 0 for equal updates).
 */
export class TfAdamTrainer {
  private readonly opt;
  constructor(
    readonly m: TfGpt,
    c: TfAdamConfig,
  ) {
    this.opt = m.tf.train.adam(c.lr, c.beta1 ?? 0.9, c.beta2 ?? 0.95, c.eps ?? 1e-8);
  }

  /** One step on `batch`; resolves to the loss before the update (the read is the sync point). */
  async step(batch: HostBatch, targets: Int32Array): Promise<number> {
    const { f, inputs } = lossFn(this.m, batch, { targets });
    const cost = this.opt.minimize(f, true, [...this.m.vars.values()]);
    for (const t of Object.values(inputs)) t.dispose();
    if (!cost) throw new Error("TF.js optimizer returned no cost");
    const l = (await cost.data())[0];
    cost.dispose();
    return l;
  }

  dispose(): void {
    this.opt.dispose();
  }
}
