/**
 * Fresh lab databases on fake-indexeddb and metric points to save in them, for the persistence tests
 * (persist.test.ts, autosave*.test.ts, restore_plan.test.ts), and the lab store paused on the default experiment.
 */
import "fake-indexeddb/auto";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence } from "../../src/lab/persist";
import type { MetricPoint, RunUpdate } from "../../src/lab/protocol";
import { useLab } from "../../src/ui/lab_store";

let dbCount = 0;
/** A database name no other test of the calling file has used. */
export const newDbName = () => `lab-test-${dbCount++}`;
export const freshDb = () => openLabPersistence(newDbName());

/** n metric points from step `from`, with TRL metric names. */
export function points(from: number, n: number): MetricPoint[] {
  return Array.from({ length: n }, (_, i) => {
    const step = from + i;
    return {
      step,
      samples: step * 8,
      tokens: step * 100,
      metrics: { reward: step / 10, "objective/kl": 0.01 * step },
    };
  });
}

/** The autosaver's view of a paused default experiment whose PPO made `steps` steps (a plain state, no store). */
export function pausedState(steps: number) {
  return {
    spec: defaultExperiment(),
    playing: false,
    runs: {
      "ppo-1": {
        spec: defaultExperiment().runs[0],
        status: "paused" as const,
        step: steps,
        history: points(1, steps),
        markers: [],
      },
    },
  };
}

/** A worker update: `n` steps of `runId` from step `from`, running unless `extra` says otherwise. */
export const update = (
  runId: string,
  from: number,
  n: number,
  extra: Partial<RunUpdate> = {},
): RunUpdate => ({
  runId,
  status: "running",
  step: from + n - 1,
  points: points(from, n),
  ...extra,
});

/** A fresh database and the lab store on the default experiment, paused; ckStep reads a run's saved checkpoint step. */
export async function pausedLab() {
  const db = await freshDb();
  const lab = useLab.getState();
  lab.setSpec(defaultExperiment());
  lab.setPlaying(false);
  const ckStep = async (id: string) =>
    (await db.load())?.runs.find((r) => r.spec.id === id)?.checkpoint?.step ?? 0;
  return { db, lab, ckStep };
}
