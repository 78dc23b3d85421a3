/** A run's bookkeeping in the scheduler (src/lab/run_slot.ts): which runs Step trains, settings markers. */
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../src/lab/protocol";
import { RunSlot, stepOnceIds } from "../../src/lab/run_slot";
import type { StepOutput } from "../../src/lab/sched_run";

const spec = (id: string): RunSpec => ({ id, algo: "ppo", label: id, config: {} });
const out = (step: number): StepOutput => ({ step, metrics: { reward: step, samples: 1, tokens: 1 } });
const run = (id: string, step: number, runnable = true) => ({ id, step, runnable });

describe("Step's plan", () => {
  it("trains every runnable run, or only the ones a mid-round pause left one step behind", () => {
    expect(stepOnceIds([run("a", 3), run("b", 3), run("c", 3)])).toEqual(["a", "b", "c"]);
    expect(stepOnceIds([run("a", 3), run("b", 2), run("c", 2)])).toEqual(["b", "c"]);
    // A run added late (two or more behind) does not stop the others.
    expect(stepOnceIds([run("a", 3), run("b", 0)])).toEqual(["a", "b"]);
    // A run in error neither steps nor counts as "ahead".
    expect(stepOnceIds([run("a", 5, false), run("b", 2), run("c", 2)])).toEqual(["b", "c"]);
    expect(stepOnceIds([run("a", 1, false), run("b", 3), run("c", 2)])).toEqual(["c"]);
    expect(stepOnceIds([])).toEqual([]);
  });
});

describe("settings markers", () => {
  const label = (k: string) => (k === "beta" ? "β" : k);
  /** A marker of β 0.2 → 0.3, with its structured change (exports read `changes`). */
  const beta = (runId: string, step: number) => ({
    runId,
    step,
    label: "β 0.2 → 0.3",
    changes: [{ key: "beta", from: 0.2, to: 0.3, label: "β 0.2 → 0.3" }],
  });

  it("are forgotten when the run goes back to step 0 (it is rebuilt with the new settings)", () => {
    const s = new RunSlot(spec("a"), null);
    s.recordStep(out(1));
    s.markChanges({ beta: 0.2 }, { beta: 0.3 }, ["beta"], label);
    s.rewind(null, 0, "device lost");
    s.take(false);
    s.recordStep(out(1));
    expect(s.take(false)?.markers).toBeUndefined();
    // Rewound to a later step, the change still applies from the next step: it is marked there.
    s.recordStep(out(2));
    s.markChanges({ beta: 0.2 }, { beta: 0.3 }, ["beta"], label);
    s.rewind(null, 1);
    s.recordStep(out(2));
    expect(s.take(false)?.markers).toEqual([beta("a", 2)]);
  });

  it("not yet sent go to a fork as its own (the page copies the ones it has)", () => {
    const s = new RunSlot(spec("a"), null);
    s.markChanges({ beta: 0.2 }, { beta: 0.3 }, ["beta"], label);
    s.recordStep(out(1));
    const f = s.fork(spec("a-fork"), null as never);
    expect(f.take(false)?.markers).toEqual([beta("a-fork", 1)]);
    expect(s.take(false)?.markers).toEqual([beta("a", 1)]);
  });

  it("name switches on and off, as their cards do, and round long numbers", () => {
    const s = new RunSlot(spec("a"), null);
    s.recordStep(out(1));
    s.markChanges({ whiten: true, lr: 1 / 3 }, { whiten: false, lr: 2e-5 }, ["whiten", "lr"], (k) => k);
    s.recordStep(out(2));
    expect(s.take(false)?.markers).toEqual([
      {
        runId: "a",
        step: 2,
        label: "whiten on → off, lr 0.3333 → 2e-5",
        changes: [
          { key: "whiten", from: true, to: false, label: "whiten on → off" },
          { key: "lr", from: 1 / 3, to: 2e-5, label: "lr 0.3333 → 2e-5" },
        ],
      },
    ]);
  });
});
