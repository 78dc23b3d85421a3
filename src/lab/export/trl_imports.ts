/** The Python imports each exported TRL script needs, by trainer (./trl_bodies.ts writes the rest). */
import type { TrlMapping } from "./trl_targets";

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
        `        raise SystemExit('This TRL has no PPOTrainer (TRL 1.x removed it): pip install "trl>=0.23,<0.27" "transformers<5"')`,
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
    case "CPOTrainer":
    case "ORPOTrainer": {
      const mod = m.target.trainer === "CPOTrainer" ? "cpo" : "orpo";
      return [
        ...base,
        "",
        "from datasets import Dataset",
        "from transformers import AutoModelForCausalLM, AutoTokenizer, pipeline",
        "",
        "try:",
        `    from trl.experimental.${mod} import ${cfg}, ${m.target.trainer}`,
        `except ImportError:  # TRL before ${m.target.trainer} moved to trl.experimental`,
        `    from trl import ${cfg}, ${m.target.trainer}`,
      ].join("\n");
    }
    default:
      return [
        ...base,
        "",
        "from datasets import Dataset",
        "from transformers import AutoModelForCausalLM, AutoTokenizer, pipeline",
        `from trl import ${cfg}, ${m.target.trainer}`,
      ].join("\n");
  }
}
