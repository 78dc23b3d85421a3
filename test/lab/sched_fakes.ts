/** Fake runs and a scheduler around them (no GPU), for the tests of the scheduler and what it drives (test/lab/scheduler*.test.ts, run_slot.test.ts and others). */
import { NonFiniteMetricError } from "../../src/algorithms/run";
import type { RunSpec, RunUpdate, SettingValue, StepProgress } from "../../src/lab/protocol";
import { type RunFactory, type SchedRun, Scheduler, type StepOutput } from "../../src/lab/scheduler";

/** Every step of every fake run, in order: "id:step". */
export type Log = string[];

export class FakeRun implements SchedRun {
  config: Record<string, SettingValue>;
  steps = 0;
  /** Inspect views built (the scheduler builds one only for an update it sends while paused). */
  inspectsBuilt = 0;
  destroyed = false;
  /** Throw at this step (1-based): `failWith`, or a non-finite loss. */
  failAt: number | null = null;
  failWith: Error | null = null;
  lost = false;
  /** The settings the last step used (set by step(); a restore sets what its checkpoint trained with). */
  trainedWith: Record<string, SettingValue> | null = null;
  /** Reported to the scheduler during each step, one per macrotask, before the step's wait. */
  stages: StepProgress[] = [];
  constructor(
    readonly id: string,
    config: Record<string, SettingValue>,
    private readonly log: Log,
    private readonly ms = 1,
  ) {
    this.config = { beta: 0.05, lr: 1e-4, ...config };
    if (this.config.lr === -1) throw new RangeError(`${id}.lr must be ≥ 0`);
  }
  async step(onProgress?: (p: StepProgress) => void): Promise<StepOutput> {
    const step = this.steps + 1;
    for (const p of this.stages) {
      onProgress?.(p);
      await new Promise((r) => setTimeout(r, this.ms));
    }
    await new Promise((r) => setTimeout(r, this.ms));
    if (this.lost) throw new Error("DEVICE LOST");
    if (this.failAt === step) throw this.failWith ?? new NonFiniteMetricError("loss", step, Number.NaN);
    this.steps = step;
    this.trainedWith = { ...this.config };
    this.log.push(`${this.id}:${step}`);
    return {
      step,
      metrics: { reward: step, samples: 2, tokens: 10, beta: Number(this.config.beta) },
      samples: () => [{ prompt: `p${step}`, completion: [], reward: step, gold: step }],
      inspect: () => {
        this.inspectsBuilt++;
        return { kind: "none", step, algo: "fake", reason: `view of step ${step}` };
      },
    };
  }
  setConfig(patch: Record<string, SettingValue>): void {
    if (patch.beta !== undefined && (typeof patch.beta !== "number" || patch.beta < 0))
      throw new RangeError(`beta must be ≥ 0, got ${patch.beta}`);
    this.config = { ...this.config, ...patch };
  }
  changesSinceTrained() {
    const from = this.trainedWith;
    const keys = from ? Object.keys(this.config).filter((k) => from[k] !== this.config[k]) : [];
    return from && keys.length ? { from, keys } : null;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export function setup(o: { flushMs?: number; ms?: number; progressAfterMs?: number } = {}) {
  const log: Log = [];
  const updates: RunUpdate[][] = [];
  const made: FakeRun[] = [];
  const factory: RunFactory = {
    async create(spec) {
      const r = new FakeRun(spec.id, spec.config, log, o.ms);
      made.push(r);
      return r;
    },
    async fork(source, _s, spec) {
      const src = source as FakeRun;
      const r = new FakeRun(spec.id, { ...src.config, ...spec.config }, log, o.ms);
      r.steps = src.steps;
      made.push(r);
      return r;
    },
  };
  const s = new Scheduler({
    factory,
    onUpdate: (u) => updates.push(u),
    flushMs: o.flushMs ?? 0,
    progressAfterMs: o.progressAfterMs,
    fieldLabel: (_spec, k) => (k === "beta" ? "β" : k),
    isDeviceLoss: (e) => e instanceof Error && e.message === "DEVICE LOST",
  });
  const all = () => updates.flat();
  const last = (id: string) =>
    all()
      .filter((u) => u.runId === id)
      .at(-1);
  const points = (id: string) => all().flatMap((u) => (u.runId === id ? u.points : []));
  return { s, log, updates, made, all, last, points };
}

export const spec = (id: string, config: Record<string, SettingValue> = {}): RunSpec => ({
  id,
  algo: "ppo",
  label: id.toUpperCase(),
  config,
});
export const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
export const until = async (cond: () => boolean, ms = 5000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error("timed out");
    await tick(2);
  }
};
