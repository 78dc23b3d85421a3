/** The experiment and PPO run the export tests (export.test.ts, export_trl.test.ts) export. */
import type { RunSpec } from "../../src/lab/protocol";

export const experiment = { task: "sentiment" as const, model: "nano" as const, seed: 7 };

export const ppo: RunSpec = {
  id: "ppo-1",
  algo: "ppo",
  label: "PPO, β = 0.2",
  config: { beta: 0.2, lr: 3e-4 },
};
