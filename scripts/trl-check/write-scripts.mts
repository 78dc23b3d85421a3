/**
 * Writes one exported TRL script per trainer (and the sentiment reward) into the folder given, for
 * ./check.sh. Small batches and 2 steps: the check is that each script runs, not what it learns.
 */
import { writeFileSync } from "node:fs";
import type { ExperimentRef } from "../../src/lab/export/run_file";
import { trlScript } from "../../src/lab/export/trl_script";
import type { RunSpec } from "../../src/lab/protocol";

const out = process.argv[2];
if (!out) throw new Error("usage: write-scripts.mts <folder>");
const arith: ExperimentRef = { task: "arithmetic", model: "sft", seed: 0 };
const sent: ExperimentRef = { task: "sentiment", model: "sft", seed: 1 };
const runs: [ExperimentRef, RunSpec][] = [
  [
    arith,
    {
      id: "grpo",
      algo: "grpo",
      label: "GRPO",
      config: { beta: 0.04, numGenerations: 4, batchPrompts: 2, entCoef: 0.01 },
    },
  ],
  [
    sent,
    {
      id: "grpo-sent",
      algo: "grpo",
      label: "GRPO sentiment",
      config: { numGenerations: 2, batchPrompts: 2, maxNewTokens: 8 },
    },
  ],
  [arith, { id: "rloo", algo: "rloo", label: "RLOO", config: { numGenerations: 4, batchPrompts: 2 } }],
  [arith, { id: "reinforce", algo: "reinforce", label: "REINFORCE", config: { batchPrompts: 4 } }],
  [arith, { id: "dpo", algo: "dpo", label: "DPO", config: { batchPairs: 4 } }],
  [arith, { id: "simpo", algo: "dpo", label: "SimPO", config: { batchPairs: 4, lossType: "simpo" } }],
  [arith, { id: "kto", algo: "kto", label: "KTO", config: {} }],
  [arith, { id: "orpo", algo: "orpo", label: "ORPO", config: {} }],
  [arith, { id: "ei", algo: "expert_iteration", label: "RFT", config: { k: 4, sftSteps: 1 } }],
  [arith, { id: "safe", algo: "safe_rlhf", label: "Safe", config: { batchPrompts: 2, numGenerations: 4 } }],
  [arith, { id: "bon", algo: "bon", label: "BoN", config: { n: 4 } }],
  [arith, { id: "ppo", algo: "ppo", label: "PPO", config: {} }],
];
for (const [e, r] of runs) writeFileSync(`${out}/${r.id}.py`, trlScript(e, { spec: r, step: 2 }));
console.log(runs.map(([, r]) => r.id).join(" "));
