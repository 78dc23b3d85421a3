/** The Python imports each exported TRL script needs, by trainer (./trl_bodies.ts writes the rest). */
import type { TrlMapping } from "./trl_targets";

/** The install line for TRL 0.23–0.26, the versions every script runs on (PPO's only: TRL 1.x removed it). */
export const TRL_0X_PIP = 'pip install "trl>=0.23,<0.27" "transformers<5" datasets torch';

/** The imports of the script for a mapping. */
export function scriptImports(m: TrlMapping): string {
  const cfg = m.target.config;
  const base = ["import math", "import random", "import re"];
  switch (m.target.trainer) {
    case "PPOTrainer":
      return [
        ...base,
        "from types import SimpleNamespace",
        "",
        "import torch",
        "from datasets import Dataset",
        "from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer",
        "",
        "try:",
        "    from trl.experimental.ppo import PPOConfig, PPOTrainer",
        "except ImportError:  # TRL before PPO moved to trl.experimental",
        "    try:",
        "        from trl import PPOConfig, PPOTrainer",
        "    except ImportError:  # TRL 1.x removed PPOTrainer",
        `        raise SystemExit('This TRL has no PPOTrainer (TRL 1.x removed it): ${TRL_0X_PIP}')`,
      ].join("\n");
    case "GRPOTrainer":
    case "RLOOTrainer":
      return [
        ...base,
        "",
        "from datasets import Dataset",
        `from trl import ${cfg}, ${m.target.trainer}`,
      ].join("\n");
    case null:
      return [...base, "", "from transformers import pipeline"].join("\n");
    default: {
      const head = [
        ...base,
        "",
        "from datasets import Dataset",
        "from transformers import AutoModelForCausalLM, AutoTokenizer, pipeline",
      ];
      const trl = `from trl import ${cfg}, ${m.target.trainer}`;
      // TRL 1.x moved CPO and ORPO to trl.experimental.
      const moved = { CPOTrainer: "cpo", ORPOTrainer: "orpo" }[m.target.trainer as string];
      if (!moved) return [...head, trl].join("\n");
      return [
        ...head,
        "",
        "try:",
        `    from trl.experimental.${moved} import ${cfg}, ${m.target.trainer}`,
        `except ImportError:  # TRL before ${m.target.trainer} moved to trl.experimental`,
        `    ${trl}`,
      ].join("\n");
    }
  }
}
