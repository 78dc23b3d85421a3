/**
 * Where TRL computes a mapped setting, or the trainer as a whole, differently from the lab: what the exported
 * script says so that its numbers are not read as the lab's. Whole-trainer differences go into the script's
 * docstring ({@link trlSemanticsNote}); one setting's go onto its keyword as a comment ({@link noteSemantics}).
 * Each was checked against TRL's code (TRL 0.23–0.26 and 1.x; file names below).
 */
import type { TaskId } from "../../tasks/task";
import type { SettingValue } from "../protocol";
import type { AlgoId } from "../registry";
import type { TrlArg } from "./trl_targets";

/**
 * The longest completion of the train pairs in each task's shipped preferences.jsonl, in the lab's tokens: the
 * file's sampler stopped at the task's generation.maxNewTokens (its meta's max_new_tokens). Offline DPO trains on
 * these pairs whole, whatever its `maxNewTokens` (src/algorithms/dpo.ts: S = max(budget, prefs.maxCompletion));
 * test/lab/export_trl.test.ts recounts them from the files.
 */
export const OFFLINE_PAIR_TOKENS: Readonly<Record<TaskId, number>> = { sentiment: 64, arithmetic: 6 };

/** Sampled from the current policy every step in the lab (src/algorithms/two_sample_run.ts), offline in TRL. */
const ON_POLICY = (what: string, trainer: string) =>
  `The lab samples ${what} from the current policy every step (on-policy); this script builds its dataset once ` +
  `from the start model and ${trainer} trains on it offline, so the data does not follow the policy as it learns.`;

/**
 * What the script's docstring says where the TRL trainer computes the algorithm differently from the lab (null:
 * nothing beyond the per-keyword notes). `settings`: the run's validated settings.
 */
export function trlSemanticsNote(algo: AlgoId, settings: Record<string, SettingValue>): string | null {
  switch (algo) {
    case "ppo":
      // trl/trainer/ppo_trainer.py (0.x; trl/experimental/ppo in 1.x): rewards[actual_start, actual_end] +=
      // scores, actual_end = sequence_lengths + 1 unless that is past response_length.
      return (
        "TRL's PPOTrainer adds the score to the per-token reward one slot after the completion's last token " +
        "(the first padding slot, sequence_lengths + 1; the last token only when the completion fills " +
        "response_length); the lab, as Ouyang et al. 2022, puts it on the last token (EOS included). In TRL the " +
        "score reaches the last token through one more GAE step, weighted γλ, the rest bootstrapped from the " +
        "value at that slot, which its value model also learns."
      );
    case "dpo":
      return settings.mode === "online"
        ? "The lab ran online DPO (fresh policy samples labelled every step); TRL's OnlineDPOTrainer does that " +
            "with a judge or reward model. This script trains offline DPO on pairs built once."
        : null;
    case "kto":
      return ON_POLICY("and labels both completions of each prompt", "KTOTrainer");
    case "orpo":
      // trl/experimental/orpo/orpo_trainer.py (trl/trainer/ in 0.x) concatenated_forward: nll_loss is
      // nn.CrossEntropyLoss() over the chosen rows' attended tokens (labels = input_ids), one mean over all.
      return (
        `${ON_POLICY("both completions of each pair", "ORPOTrainer")} ` +
        "TRL's nll_loss (the SFT term) is one token mean over the batch's chosen sequences, prompt tokens " +
        "included, so long ones weigh more; the lab (the ORPO paper's L_SFT per pair) averages each chosen completion's " +
        "mean token NLL over the pairs."
      );
    case "grpo":
    case "rloo":
    case "reinforce":
    case "expert_iteration":
    case "safe_rlhf":
    case "bon":
      return null;
    default:
      // A new algorithm fails to compile here until it says whether TRL trains it differently.
      throw new RangeError(`no TRL semantics for ${algo satisfies never}`);
  }
}

/**
 * Notes (and values) on keywords TRL computes differently: `args` as trlMapping built them, changed in place.
 * `pairTokens`: the longest completion of the offline pairs the lab trained on (offline DPO:
 * {@link OFFLINE_PAIR_TOKENS}), undefined when unknown.
 */
export function noteSemantics(
  algo: AlgoId,
  settings: Record<string, SettingValue>,
  args: TrlArg[],
  pairTokens?: number,
): void {
  const arg = (name: string) => args.find((a) => a.name === name);
  const ent = arg("entropy_coef");
  if (ent && ent.value !== 0 && settings.lossType !== "dapo")
    ent.note = `TRL averages the entropy over all the batch's completion tokens (the lab's loss_type "dapo" weighting), not by loss_type "${settings.lossType}"`;
  if (algo === "rloo" && (settings.numIterations as number) > 1) {
    // trl/trainer/rloo_trainer.py _compute_loss: log_ratio = logps − old_logps of the summed completion
    // log-probs, coef_1 = exp(log_ratio) clamped per sequence; clip_ratio/* are means over sequences.
    const eps = arg("epsilon");
    if (eps)
      eps.note =
        "TRL's RLOOTrainer clips each completion's sequence ratio exp(Σ log π_θ − Σ log π_old), the lab each " +
        "token's ratio, so the same ε clips differently; TRL's clip_ratio/* count completions, the lab's tokens";
    const mu = arg("num_iterations");
    if (mu)
      mu.note =
        "From the second update on a batch, TRL's ratio is per completion, the lab's per token (see epsilon)";
  }
  if (algo === "ppo") {
    const est = arg("kl_estimator");
    if (est && est.value === "k3")
      est.note =
        "TRL then logs the k3 sum as objective/kl: the lab's objective/kl_k3 (the lab's objective/kl is k1)";
    const clip = arg("max_grad_norm");
    if (clip) clip.note = "PPOTrainer's own update loop does not clip gradients, so TRL ignores it";
  }
  const length = arg("max_completion_length");
  if (
    algo === "dpo" &&
    settings.mode === "offline" &&
    length &&
    pairTokens !== undefined &&
    pairTokens > (length.value as number)
  ) {
    // DPOTrainer cuts every completion at max_completion_length; the lab never cuts its offline pairs.
    length.note = `The lab trained on its offline pairs whole (the longest: ${pairTokens} tokens; max tokens ${length.value} only limits its charted samples), so not ${length.value}, which would cut them`;
    length.value = pairTokens;
  }
}
