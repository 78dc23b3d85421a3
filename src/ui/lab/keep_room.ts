/**
 * What keeping the open experiment under Recent experiments would do to a full list, said before leaving (the
 * Change… dialog, the lesson picker's confirmation): which kept experiment it would forget, or that it would not
 * be kept itself (src/lab/archive.ts toForget: the one holding the least training goes). An estimate from the
 * list and the lab's runs; src/lab/archive.ts keepIn decides with the whole sessions.
 */
import { type ArchiveEntry, toForget } from "../../lab/archive";
import type { ExperimentSpec } from "../../lab/protocol";
import { sameExperiment } from "../../lab/restore";
import type { RunState } from "../lab_store";
import { keptRunsText } from "./experiment_names";
import type { PipelineState } from "./pipeline_store";
import { matchesLink } from "./session_lines";

/** What keeping would do: the kept experiments it forgets (least training first), or `notKept`: not this one. */
export interface Room {
  forget: ArchiveEntry[];
  notKept: boolean;
}

export const NO_ROOM: Room = { forget: [], notKept: false };

/** Whether the Pipeline has models that leaving keeps with the experiment (src/ui/lab/session.ts). */
export const pipelineKept = (s: PipelineState): boolean =>
  s.handedOff !== null || s.sft.status === "done" || s.rm.status === "done";

/** The kept experiment that leaving for `target` reopens (a link to it: src/ui/lab/session.ts), if any. */
export function reopenedBy(
  listed: readonly ArchiveEntry[],
  target: ExperimentSpec,
): ArchiveEntry | undefined {
  return listed.find((e) => matchesLink(e.spec, target));
}

/** "it reopens where its runs stopped (PPO at step 1, DPO at step 1)", of a kept experiment ({@link reopenedBy}). */
export const reopensText = (entry: ArchiveEntry): string =>
  `it reopens where its runs stopped (${keptRunsText(entry)})`;

/** The open experiment as the list would show it once kept: its runs at the steps they reached, comparisons at 0. */
export type Here = Pick<ArchiveEntry, "spec" | "runs" | "pipeline">;

/** {@link Here} of the lab's experiment and runs; `pipeline`: its Pipeline's models go along. */
export function hereOf(spec: ExperimentSpec, runs: Record<string, RunState>, pipeline: boolean): Here {
  return {
    spec,
    runs: spec.runs.map((r) => {
      const run = runs[r.id];
      return {
        label: r.label,
        algo: r.algo,
        step: run && !run.comparison ? run.step : 0,
        ...(run?.comparison && { comparison: true as const }),
      };
    }),
    pipeline,
  };
}

/**
 * Whether keeping `here` would replace `kept` rather than sit beside it (src/lab/archive.ts holds, read from
 * the list): the same experiment, each of its trained runs here at least as far, its comparisons and Pipeline too.
 */
function mayHold(here: Here, kept: ArchiveEntry): boolean {
  if (!sameExperiment(here.spec, kept.spec) || (kept.pipeline && !here.pipeline)) return false;
  return kept.runs.every(
    (k) =>
      (k.step === 0 && !k.comparison) ||
      here.runs.some(
        (h) =>
          h.label === k.label && h.algo === k.algo && !h.comparison === !k.comparison && h.step >= k.step,
      ),
  );
}

/**
 * What keeping `here` does to the kept experiments `listed` when the page leaves for `target` (null: unknown).
 * Nothing when `target` is a kept one (Back, a lesson done before): reopening swaps it out of the list first.
 */
export function roomFor(
  listed: readonly ArchiveEntry[],
  here: Here,
  target: ExperimentSpec | null,
  now = Date.now(),
): Room {
  if (target && reopenedBy(listed, target)) return NO_ROOM;
  const entry: ArchiveEntry = { ...here, id: "", savedAt: now, signature: "" };
  const forget = toForget(
    listed.filter((e) => !mayHold(here, e)),
    entry,
  );
  return { forget: forget.filter((e) => e !== entry), notKept: forget.includes(entry) };
}
