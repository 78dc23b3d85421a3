/**
 * The end of `npm run pretrain`: write the checkpoint, record it in the manifest at once, and only then
 * evaluate it (a GPU run that can hang or fail) and record again with the evaluation. So the manifest's sha256
 * always describes the file on disk; an entry without `evaluation` was not evaluated (`npm run evaluate-sft`
 * adds it). Before, the manifest was written after the evaluation, and a failed one left a new checkpoint with
 * the old file's hash (test/models/shipped.test.ts then failed).
 */

/** The side effects, injected (scripts/pretrain.ts passes the real ones; test/models/publish.test.ts fakes). */
export interface PublishSteps<R> {
  /** Write the checkpoint file. */
  write(): Promise<void>;
  /** Record the file with these facts (a no-op when it is not shipped). */
  record(facts: Record<string, unknown>): void;
  /** Evaluate the written checkpoint. */
  evaluate(): Promise<R>;
  /** Seconds since the run started (for `run_time_s`, recorded with the evaluation). */
  seconds(): number;
}

/**
 * Write, record `facts`, evaluate, record `facts` + `run_time_s` + `evaluation`.
 * @returns the evaluation.
 * @throws whatever `write` or `evaluate` throws; the manifest then holds the entry of the file written, or none.
 */
export async function publishCheckpoint<R>(s: PublishSteps<R>, facts: Record<string, unknown>): Promise<R> {
  await s.write();
  s.record(facts);
  const evaluation = await s.evaluate();
  s.record({ ...facts, run_time_s: Math.round(s.seconds()), evaluation });
  return evaluation;
}
