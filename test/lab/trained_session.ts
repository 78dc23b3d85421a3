/**
 * A saved session whose first run trained and the others did not, as the archive tests (./archive.test.ts) and
 * the Back/Forward tests' kept lists (./leave_page.ts trained) keep it. No page stubs: a plain value.
 */
import type { SavedSession } from "../../src/lab/persist";
import type { ExperimentSpec, MetricPoint } from "../../src/lab/protocol";

/**
 * `spec`'s session, its first run paused at `steps` with `history`, `markers` (default none) and a checkpoint of
 * `bytes` at `steps` (8 samples, 80 tokens); the other runs at step 0 with nothing.
 */
export function trainedSession(
  spec: ExperimentSpec,
  steps: number,
  first: { history: MetricPoint[]; bytes: Uint8Array; markers?: SavedSession["runs"][number]["markers"] },
): SavedSession {
  return {
    spec,
    runs: spec.runs.map((run, i) => ({
      spec: run,
      status: "paused" as const,
      step: i === 0 ? steps : 0,
      history: i === 0 ? first.history : [],
      markers: i === 0 ? (first.markers ?? []) : [],
      checkpoint:
        i === 0
          ? { runId: run.id, bytes: first.bytes, step: steps, samples: 8, tokens: 80, savedAt: 1 }
          : null,
    })),
  };
}
