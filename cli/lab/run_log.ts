/**
 * The lines of a run's JSONL log (`lab train --out`, `lab lesson --out`): one object per step with the page's
 * CSV columns (src/lab/export/columns.ts): `step`, the run's own keys (`algo`, and `run` in a lesson), `samples`
 * and `tokens` as running totals, then the step's metrics under TRL's names, its own counters as `samples_step`
 * and `tokens_step`. The same run exported from the page as CSV has the same numbers under the same names.
 */
import { csvRecord, pointAfter } from "../../src/lab/export/columns";

export class RunLogLines {
  private at = { samples: 0, tokens: 0 };

  /** `head`: the keys every line carries after `step` (`{algo: "ppo"}`; a lesson's `{run, algo}`). */
  constructor(private readonly head: Readonly<Record<string, string>>) {}

  /** The line of a finished step (steps in order from 1: the totals count every step given so far). */
  line(step: number, metrics: Record<string, number>): Record<string, number | string> {
    const p = pointAfter(this.at, step, metrics);
    this.at = p;
    return { step, ...this.head, ...csvRecord(p) };
  }
}
