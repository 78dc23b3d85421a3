/**
 * How long the exported TRL script trains: as long as the lab run did. Without it TRL trains
 * `num_train_epochs = 3` passes over PROMPTS (8,100 arithmetic prompts: thousands of steps), whatever the run did.
 * Each trainer counts its length in its own unit, so one lab step (one batch of prompts sampled, or of pairs,
 * and its updates) becomes:
 * - GRPOTrainer, RLOOTrainer (GRPO, RLOO, REINFORCE, Safe RLHF): `max_steps` = steps × `num_iterations`; with
 *   `gradient_accumulation_steps = 1` they generate one batch every `steps_per_generation × num_iterations`
 *   optimizer steps (TRL ≥ 0.17, trl/trainer/grpo_trainer.py `_prepare_inputs`), and the lab takes μ updates on
 *   each batch it samples;
 * - PPOTrainer: `total_episodes` = steps × prompts per step (its loop runs ⌈total_episodes / batch⌉ rollouts);
 * - DPOTrainer, CPOTrainer, KTOTrainer, ORPOTrainer (offline, one optimizer step per batch): `max_steps` = steps;
 * - expert iteration: the script's ROUNDS = steps (one lab step is one round; each round's SFT keeps its own
 *   `max_steps`, the run's `sftSteps`);
 * - best-of-n trains nothing.
 */
import type { AlgoId } from "../registry";
import type { TrlArg } from "./trl_targets";

/** The script's training length for a run that trained `steps` (≥ 0) lab steps. */
export interface TrlLength {
  /** The config keyword that sets it (null: none, see `rounds` and `note`). */
  arg: TrlArg | null;
  /** Expert iteration's ROUNDS (null: not expert iteration, or the run has not trained). */
  rounds: number | null;
  /** Said in the script's docstring when TRL keeps its own length (the run has not trained). */
  note: string | null;
}

/**
 * The TRL keyword (or expert iteration's round count) that trains as many lab steps as the run did.
 * `settings`: the run's validated settings (trlMapping's `settings`). A run at step 0 keeps TRL's length.
 */
export function trlLength(algo: AlgoId, settings: Record<string, unknown>, steps: number): TrlLength {
  if (algo === "bon") return { arg: null, rounds: null, note: null };
  if (!(steps > 0))
    return {
      arg: null,
      rounds: null,
      note:
        algo === "expert_iteration"
          ? "The run had not trained yet: set ROUNDS below to the number of rounds to run."
          : `The run had not trained yet, so TRL trains its own length (num_train_epochs=3 passes over\nPROMPTS): add ${algo === "ppo" ? "total_episodes (prompts; PPOTrainer ignores max_steps)" : "max_steps"} to the config to choose another.`,
    };
  const plain = (name: string, value: number, note: string): TrlLength => ({
    arg: { name, value, field: null, changed: false, note },
    rounds: null,
    note: null,
  });
  switch (algo) {
    case "grpo":
    case "rloo":
    case "safe_rlhf": {
      const mu = Number(settings.numIterations ?? 1);
      return mu === 1
        ? plain("max_steps", steps, `the lab run's ${steps} steps, one update on each sampled batch`)
        : plain(
            "max_steps",
            steps * mu,
            `the lab run's ${steps} steps × num_iterations ${mu}: the trainer counts each of the ${mu} updates on a sampled batch`,
          );
    }
    case "reinforce":
      return plain("max_steps", steps, `the lab run's ${steps} steps, one update on each sampled batch`);
    case "ppo": {
      const b = Number(settings.batchPrompts);
      return plain(
        "total_episodes",
        steps * b,
        `the lab run's ${steps} steps × ${b} prompts: PPOTrainer counts prompts, not steps`,
      );
    }
    case "dpo":
    case "kto":
    case "orpo":
      return plain("max_steps", steps, `the lab run's ${steps} steps, one batch each`);
    case "expert_iteration":
      return { arg: null, rounds: steps, note: null };
    default:
      throw new RangeError(`no TRL length for ${algo satisfies never}`);
  }
}
