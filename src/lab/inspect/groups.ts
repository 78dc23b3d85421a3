/**
 * The group view of a step of a group algorithm (G completions per prompt, laid out group by group): each
 * group's scores, their mean and sample std, and the advantages — for GRPO under all three `scale_rewards`
 * (math/grpo.ts grpoAdvantages, called once per mode on the whole batch, as the run calls it once with its
 * own), for RLOO the leave-one-out advantage (math/rloo.ts rlooAdvantages) and its baseline s_i − A_i.
 */
import {
  aggregationWeights,
  GRPO_STD_EPS,
  type GrpoLossType,
  grpoAdvantages,
  type ScaleRewards,
} from "../../algorithms/math/grpo";
import { mean, std } from "../../algorithms/math/numerics";
import { rlooAdvantages } from "../../algorithms/math/rloo";
import { completionString, type TokenText } from "./text";
import { GROUP_MAX, GROUP_ROWS, type GroupRow, type GroupsInspect, type InspectGroup } from "./types";

export interface GroupInspectInput {
  step: number;
  algo: string;
  rule: "grpo" | "rloo";
  /** G ≥ 2, dividing the batch. */
  G: number;
  /** GRPO rule: the run's own scaling. */
  scaleRewards: ScaleRewards | null;
  scoreFormula: string | null;
  scoreNote: string | null;
  prompts: readonly (readonly number[])[];
  completions: readonly (readonly number[])[];
  /** [B] rewards R and [B] the scores the advantages use (= R unless the algorithm folds in a penalty). */
  reward: ArrayLike<number>;
  scores: ArrayLike<number>;
  /** GRPO rule: the run's loss_type and L = max_completion_length (the completion slots S it sampled). */
  loss?: { lossType: GrpoLossType; L: number; maxNewTokens?: number };
}

/**
 * Per-token weights of each completion under the three loss types, from the real aggregation (one token
 * per completion is enough: every token of a completion has the same weight).
 */
function lossWeights(lengths: readonly number[], L: number): Record<GrpoLossType, Float64Array> {
  const B = lengths.length;
  const T = Math.max(1, ...lengths);
  const mask = new Float64Array(B * T);
  for (let b = 0; b < B; b++) mask.fill(1, b * T, b * T + lengths[b]);
  const shape = { B, T, mask };
  const first = (w: Float64Array) => Float64Array.from(lengths, (_, b) => w[b * T]);
  return {
    grpo: first(aggregationWeights(shape, "grpo")),
    dapo: first(aggregationWeights(shape, "dapo")),
    dr_grpo: first(aggregationWeights(shape, "dr_grpo", L)),
  };
}

/**
 * The first groups, up to GROUP_MAX of them and GROUP_ROWS completions in all (at least one group).
 * @throws RangeError as grpoAdvantages / rlooAdvantages (G < 2, B not a multiple of G, a non-finite score).
 */
export function groupInspect(x: GroupInspectInput, text: TokenText): GroupsInspect {
  const { G } = x;
  const scores = Float64Array.from(x.scores);
  const B = scores.length;
  if (x.reward.length !== B || x.completions.length !== B)
    throw new RangeError(
      `rewards, scores and completions differ in length (${x.reward.length}, ${B}, ${x.completions.length})`,
    );
  const byScale =
    x.rule === "grpo"
      ? {
          group: grpoAdvantages(scores, G, "group").advantages,
          batch: grpoAdvantages(scores, G, "batch").advantages,
          none: grpoAdvantages(scores, G, "none").advantages,
        }
      : null;
  const rloo = x.rule === "rloo" ? rlooAdvantages(scores, G) : null;
  const lengths = x.completions.map((c) => c.length);
  const byLoss = x.rule === "grpo" && x.loss ? lossWeights(lengths, x.loss.L) : null;
  const totalGroups = B / G;
  const shown = Math.min(totalGroups, GROUP_MAX, Math.max(1, Math.floor(GROUP_ROWS / G)));
  const groups: InspectGroup[] = [];
  for (let g = 0; g < shown; g++) {
    const from = g * G;
    const own = scores.subarray(from, from + G);
    const rewards = Array.from({ length: G }, (_, i) => x.reward[from + i]);
    const rows: GroupRow[] = [];
    for (let i = from; i < from + G; i++) {
      const row: GroupRow = {
        completion: completionString(x.completions[i], text),
        reward: x.reward[i],
        score: scores[i],
        length: lengths[i],
      };
      if (byLoss) row.byLoss = { grpo: byLoss.grpo[i], dapo: byLoss.dapo[i], dr_grpo: byLoss.dr_grpo[i] };
      if (byScale) row.byScale = { group: byScale.group[i], batch: byScale.batch[i], none: byScale.none[i] };
      if (rloo) {
        row.advantage = rloo[i];
        row.baseline = scores[i] - rloo[i];
      }
      rows.push(row);
    }
    groups.push({
      prompt: text.prompt(x.prompts[from]),
      mean: mean(own),
      std: std(own, true),
      // As frac_reward_zero_std counts: the raw rewards tie (RLOO's scores also hold −β·KL).
      zeroStd: rewards.every((v) => v === rewards[0]),
      rows,
    });
  }
  return {
    kind: "groups",
    step: x.step,
    algo: x.algo,
    rule: x.rule,
    G,
    scaleRewards: x.rule === "grpo" ? x.scaleRewards : null,
    scoreFormula: x.scoreFormula,
    scoreNote: x.scoreNote,
    batchStd: std(scores, true),
    eps: GRPO_STD_EPS,
    groups,
    totalGroups,
    ...(byLoss &&
      x.loss && {
        loss: {
          lossType: x.loss.lossType,
          B,
          n: lengths.reduce((a, v) => a + v, 0),
          L: x.loss.L,
          ...(x.loss.maxNewTokens !== undefined && { maxNewTokens: x.loss.maxNewTokens }),
        },
      }),
  };
}
