/**
 * scripts/pretrain/publish.ts: the manifest entry is written right after the checkpoint, before the GPU
 * evaluation. Before, pretrain recorded only after evaluating, so an evaluation that failed or hung left a new
 * checkpoint with a stale manifest hash (test/models/shipped.test.ts then failed).
 */
import { describe, expect, it } from "vitest";
import { type PublishSteps, publishCheckpoint } from "../../scripts/pretrain/publish";

function steps(evaluate: () => Promise<{ acc: number }>) {
  const log: string[] = [];
  const records: Record<string, unknown>[] = [];
  const s: PublishSteps<{ acc: number }> = {
    write: async () => void log.push("write"),
    record: (facts) => {
      log.push("record");
      records.push(facts);
    },
    evaluate: async () => {
      log.push("evaluate");
      return evaluate();
    },
    seconds: () => 12.4,
  };
  return { s, log, records };
}

describe("publishCheckpoint", () => {
  it("records right after writing, then evaluates and records the evaluation and run time", async () => {
    const { s, log, records } = steps(async () => ({ acc: 0.5 }));
    expect(await publishCheckpoint(s, { steps: 300 })).toEqual({ acc: 0.5 });
    expect(log).toEqual(["write", "record", "evaluate", "record"]);
    expect(records[0]).toEqual({ steps: 300 });
    expect(records[1]).toEqual({ steps: 300, run_time_s: 12, evaluation: { acc: 0.5 } });
  });

  it("an evaluation that fails leaves the written file recorded", async () => {
    const { s, log, records } = steps(async () => {
      throw new Error("device lost");
    });
    await expect(publishCheckpoint(s, { steps: 300 })).rejects.toThrow("device lost");
    expect(log).toEqual(["write", "record", "evaluate"]);
    expect(records).toEqual([{ steps: 300 }]);
  });
});
