/**
 * Bradley–Terry reward-model loss on the GPU (src/shaders/bt_loss.wgsl): gathers each sequence's score at its
 * last real token from the reward head's per-position output, computes the pairwise loss and metric rows, and
 * scatters dL/dscore into a zeroed per-position gradient for gptBackward({ rewardHead: true }). CPU twin:
 * src/reference/bt_loss.ts, over src/algorithms/math/reward_model.ts bradleyTerryLossAndGrad.
 *
 * Layout (TRL's concatenated batch): a [2B, T] token batch, the B chosen sequences first, then the B rejected
 * ones in the same pair order; index [2B] holds each sequence's last-token row b·T + t.
 */
import { checkNumber } from "../algorithms/math/numerics";
import type { GpuContext } from "../gpu/context";
import { defineKernel } from "../gpu/pipeline";
import type { Tensor } from "../gpu/tensor";
import { params } from "../gpu/uniforms";
import { BT_TERMS } from "../reference/bt_loss";
import source from "../shaders/bt_loss.wgsl?raw";
import { fill } from "./fill";
import { reduceRows } from "./reduce";
import { checkNoAlias, expectTensor } from "./vocab_rows";

export { BT_TERMS };

/** Number of per-pair metric rows (terms is [BT_TERM_COUNT, B], sums [BT_TERM_COUNT]). */
export const BT_TERM_COUNT = BT_TERMS.length;

const kernel = defineKernel({
  name: "bt_loss",
  source,
  bindings: ["uniform", "read-only-storage", "read-only-storage", "storage", "storage"],
  workgroupSize: [64],
});

export interface BtLossOutputs {
  /** [n] f32: zero-filled, then dL/dscore at the 2B gathered rows (L the mean loss over pairs). */
  drewards: Tensor;
  /** Per-pair metric rows [BT_TERM_COUNT, B] f32 (BT_TERMS). */
  terms: Tensor;
  /** Row sums of terms [BT_TERM_COUNT] f32; omitted: not reduced. Read back, then {@link btLossMetrics}. */
  sums?: Tensor | null;
}

/**
 * Record the Bradley–Terry loss (../shared/docs/algorithms.md, "Reward model"; exactly bradleyTerryLossAndGrad per
 * pair): r_w = rewards[index[i]], r_l = rewards[index[B + i]], loss −log σ(r_w − r_l) + η(r_w + r_l)², the
 * gradient into `drewards` (filled with 0 first, then written at the gathered rows), the metric rows and,
 * when `sums` is given, their sums (one reduceRows dispatch). A pair with an index outside [0, n) or a
 * non-finite score gets 0 gradient and counts as `invalid` (btLossMetrics then throws).
 * @param rewards [n] f32, the reward head at every position (acts.rewards).
 * @param index [2B] i32, distinct last-token rows (chosen first, then rejected); B ≥ 1.
 * @param eta centring coefficient η ≥ 0 (Eisenstein et al. 2023; TRL `center_rewards_coefficient`), default 0.
 * @throws RangeError on sizes or dtypes, outputs sharing a buffer with an input or each other, or η < 0.
 */
export function btLoss(ctx: GpuContext, out: BtLossOutputs, rewards: Tensor, index: Tensor, eta = 0): void {
  const op = "btLoss";
  checkNumber("eta", eta, 0);
  const S = index.size;
  if (S < 2 || S % 2 !== 0)
    throw new RangeError(`${op}: index must hold 2B rows (chosen, then rejected), B ≥ 1; got ${S}`);
  const B = S / 2;
  const n = rewards.size;
  expectTensor(op, rewards, n, "f32", "rewards");
  expectTensor(op, index, S, "i32", "index");
  expectTensor(op, out.drewards, n, "f32", "drewards");
  expectTensor(op, out.terms, BT_TERM_COUNT * B, "f32", "terms");
  if (out.sums) expectTensor(op, out.sums, BT_TERM_COUNT, "f32", "sums");
  checkNoAlias(op, [out.drewards, out.terms], [rewards, index]);
  checkNoAlias(op, [out.drewards], [out.terms]);
  fill(ctx, out.drewards, 0);
  ctx.dispatch(kernel, {
    bindings: [params(["u32", B], ["u32", n], ["f32", eta]), rewards, index, out.drewards, out.terms],
    workgroups: Math.ceil(B / kernel.invocations),
  });
  if (out.sums) reduceRows(ctx, "sum", out.sums, out.terms.reshape([BT_TERM_COUNT, B]));
}

/** Mean loss and metrics over the B pairs (TRL RewardTrainer names: loss, accuracy; plus margin and means). */
export interface BtLossMetrics {
  loss: number;
  /** Share of pairs with r_w > r_l, in [0, 1]. */
  accuracy: number;
  /** mean (r_w − r_l). */
  margin: number;
  /** mean r_w, mean r_l. */
  rewardsChosen: number;
  rewardsRejected: number;
}

/**
 * Turn the `sums` of {@link btLoss} (read back, [BT_TERM_COUNT]) for B pairs into means.
 * @throws RangeError on a wrong length, B < 1, or invalid pairs (index out of range or a non-finite score).
 */
export function btLossMetrics(sums: ArrayLike<number>, B: number): BtLossMetrics {
  if (sums.length !== BT_TERM_COUNT)
    throw new RangeError(`btLossMetrics: expected ${BT_TERM_COUNT} sums, got ${sums.length}`);
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`btLossMetrics: B must be ≥ 1, got ${B}`);
  const s = (name: (typeof BT_TERMS)[number]) => sums[BT_TERMS.indexOf(name)];
  if (s("invalid") !== 0)
    throw new RangeError(
      `btLoss: ${s("invalid")} of ${B} pair(s) had a non-finite score or a last-token index outside the ` +
        "batch; the reward model's training stopped here (try a lower learning rate)",
    );
  return {
    loss: s("loss") / B,
    accuracy: s("accuracy") / B,
    margin: s("margin") / B,
    rewardsChosen: s("rewards_chosen") / B,
    rewardsRejected: s("rewards_rejected") / B,
  };
}
