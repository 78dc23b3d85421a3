/**
 * Every algorithm the lab offers: its field table (settings, docs, TRL names) and how to start a run. The
 * lab's run picker, the URL settings and the CLI all read this one table.
 */
import { BestOfNRun, BON_FIELDS } from "../algorithms/best_of_n";
import { DPO_FIELDS, DpoRun, type PreferenceSource } from "../algorithms/dpo";
import { EXPERT_ITERATION_FIELDS, ExpertIterationRun } from "../algorithms/expert_iteration";
import type { ConfigProblem, ConfigValues, Field } from "../algorithms/fields";
import { GRPO_FIELDS, GrpoRun } from "../algorithms/grpo";
import { KTO_FIELDS, KtoRun } from "../algorithms/kto";
import { ORPO_FIELDS, OrpoRun } from "../algorithms/orpo";
import { PPO_FIELDS, type PpoConfig, PpoRun } from "../algorithms/ppo";
import { ppoConfigProblem } from "../algorithms/ppo_fields";
import { REINFORCE_FIELDS, ReinforceRun } from "../algorithms/reinforce";
import { RLOO_FIELDS, RlooRun } from "../algorithms/rloo";
import type { AlgorithmRun, RunEnv } from "../algorithms/run";
import { SAFE_RLHF_FIELDS, SafeRlhfRun } from "../algorithms/safe_rlhf";
import type { AlgoId } from "./algo_ids";
import { algoConfig, RUN_FIELDS } from "./settings";

export type { AlgoId } from "./algo_ids";

export interface AlgorithmInfo {
  id: AlgoId;
  title: string;
  fields: readonly Field[];
  /** Needs the frozen reference model (KL penalty, DPO's ratios, …). */
  needsRef: boolean;
  /** Trains the policy (best-of-n does not). */
  trains: boolean;
  /**
   * What its settings must satisfy together beyond each field's range (absent: nothing), on a config with every
   * default filled in: the run's constructor throws it; a link's check drops those settings (spec_check.ts).
   */
  configProblem?(config: ConfigValues): ConfigProblem | null;
  create(
    env: RunEnv,
    config: Record<string, number | string | boolean>,
    prefs: PreferenceSource | null,
  ): AlgorithmRun;
}

const ALGORITHM_TABLES: Record<AlgoId, AlgorithmInfo> = {
  ppo: {
    id: "ppo",
    title: "PPO",
    fields: PPO_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c) => new PpoRun(env, c),
    configProblem: (c) => ppoConfigProblem(c as unknown as PpoConfig),
  },
  grpo: {
    id: "grpo",
    title: "GRPO",
    fields: GRPO_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c) => new GrpoRun(env, c),
  },
  dpo: {
    id: "dpo",
    title: "DPO",
    fields: DPO_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c, prefs) => new DpoRun(env, prefs, c),
  },
  rloo: {
    id: "rloo",
    title: "RLOO",
    fields: RLOO_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c) => new RlooRun(env, c),
  },
  reinforce: {
    id: "reinforce",
    title: "REINFORCE",
    fields: REINFORCE_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c) => new ReinforceRun(env, c),
  },
  bon: {
    id: "bon",
    title: "Best-of-n",
    fields: BON_FIELDS,
    needsRef: false,
    trains: false,
    create: (env, c) => new BestOfNRun(env, c),
  },
  expert_iteration: {
    id: "expert_iteration",
    title: "Expert iteration",
    fields: EXPERT_ITERATION_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c) => new ExpertIterationRun(env, c),
  },
  kto: {
    id: "kto",
    title: "KTO",
    fields: KTO_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c) => new KtoRun(env, c),
  },
  orpo: {
    id: "orpo",
    title: "ORPO",
    fields: ORPO_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c) => new OrpoRun(env, c),
  },
  safe_rlhf: {
    id: "safe_rlhf",
    title: "Safe RLHF",
    fields: SAFE_RLHF_FIELDS,
    needsRef: true,
    trains: true,
    create: (env, c) => new SafeRlhfRun(env, c),
  },
};

/**
 * The algorithms as the lab sees them: each table followed by the lab's per-run settings (RUN_FIELDS: the
 * reward source), which `create` strips before the algorithm validates its settings.
 */
export const ALGORITHMS = Object.fromEntries(
  Object.entries(ALGORITHM_TABLES).map(([id, a]): [string, AlgorithmInfo] => [
    id,
    { ...a, fields: [...a.fields, ...RUN_FIELDS], create: (env, c, p) => a.create(env, algoConfig(c), p) },
  ]),
) as Record<AlgoId, AlgorithmInfo>;

export const ALGO_IDS = Object.keys(ALGORITHMS) as AlgoId[];

/** @throws RangeError naming the known algorithms. */
export function algorithm(id: string): AlgorithmInfo {
  // Own keys only: "constructor" or "toString" is no algorithm (ALGORITHMS["constructor"] is Object).
  const a = Object.hasOwn(ALGORITHMS, id) ? ALGORITHMS[id as AlgoId] : undefined;
  if (!a) throw new RangeError(`unknown algorithm "${id}" (known: ${ALGO_IDS.join(", ")})`);
  return a;
}
