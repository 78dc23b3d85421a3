/**
 * Config keywords that only some of the TRL versions the scripts target have (TRL 0.23–0.26 and 1.x). The
 * script sets such a keyword after the config call, only where the installed class has the field
 * (`if "<name>" in <Class>.__dataclass_fields__:`), so one script runs on every version (./trl_py.ts
 * configCall). Checked against TRL 1.13 (scripts/trl-check/).
 */
import type { TrlClass } from "./trl_accepts";

export interface VersionedKeyword {
  /** The comment on the `if` line: which TRL has the keyword. */
  has: string;
  /**
   * Printed by the script where the installed class lacks the keyword and the run's value is not 0 (the
   * setting then has no effect there). Absent: the class's own default stands in silently.
   */
  without?: string;
}

const COMPLETION_LENGTH: VersionedKeyword = {
  has: "TRL 0.x; TRL 1.x has only max_length, prompt + completion",
};

export const TRL_VERSIONED: Partial<Record<TrlClass, Readonly<Record<string, VersionedKeyword>>>> = {
  DPOConfig: { max_completion_length: COMPLETION_LENGTH },
  KTOConfig: { max_completion_length: COMPLETION_LENGTH },
  GRPOConfig: {
    // TRL's entropy regularisation (huggingface/trl#6140, in TRL 1.13): loss − entropy_coef × the mean entropy
    // over all completion tokens of the batch, whatever the loss type.
    entropy_coef: {
      has: "TRL 1.x with entropy regularisation, e.g. 1.13; TRL 0.x's GRPOTrainer has no entropy bonus",
      without: "This TRL's GRPOConfig has no entropy_coef: the run's entropy bonus c_H is not applied.",
    },
  },
};
