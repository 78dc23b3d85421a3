/**
 * A saved session for the Recent experiments tests (session_recent*.test.ts), on the database of ./session_page.ts.
 */
import { openLabPersistence } from "../../src/lab/persist";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { points } from "./session_page";

/** A saved session of `spec` whose PPO trained 12 steps (checkpoint at 10). */
export async function savedTrained(name: string, spec: ExperimentSpec) {
  const db = await openLabPersistence(name);
  await db.saveExperiment(spec);
  await db.saveRun({ spec: spec.runs[0], status: "paused", step: 12, history: points(12), markers: [] });
  await db.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 10, samples: 80, tokens: 500 });
  return db;
}
