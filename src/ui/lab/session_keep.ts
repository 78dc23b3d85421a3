/**
 * Keeping the saved session in Recent experiments when opening the lab would lose some of its training: another
 * experiment replaces its trained runs or Pipeline models, or a saved run cannot resume and starts over
 * (./session.ts).
 */
import { type KeptEntry, keepsCurves, savedStep } from "../../lab/archive";
import type { LabPersistence, SavedPipeline, SavedSession } from "../../lab/persist";
import type { ExperimentSpec } from "../../lab/protocol";
import { leftOutBy, sameExperiment } from "../../lab/restore";
import { errorMessage as message } from "../../util/errors";
import { droppedText, experimentTitle, keptRunsText, NOT_KEPT_WHY } from "./experiment_names";

/**
 * Whether opening this experiment drops some of the saved session's trained runs (`leftOut`, src/lab/restore.ts)
 * or its Pipeline models (`savedPipeline`: the saved ones, or whether there are some), so that the session must be kept in Recent
 * experiments first. `leftOut` may be the lab's own runs (a move through history asks first: ./history_leave.ts).
 */
export function dropsTraining(
  leftOut: readonly Parameters<typeof keepsCurves>[0][],
  savedPipeline: SavedPipeline | boolean | null,
  pipelineDropped: boolean,
  sameOne: boolean,
): boolean {
  // Runs imported for comparison are left out of the opened spec even on a reload of the same experiment
  // (their curves come back separately): they count only when another experiment replaces them.
  const trained = leftOut.filter((r) => savedStep(r) > 0 || (!sameOne && keepsCurves(r)));
  return trained.length > 0 || (pipelineDropped && !!savedPipeline);
}

/**
 * Whether opening `link` over the experiment `open` (its runs `runs`, its Pipeline models `pipeline`) drops some
 * of its training, as ./session.ts decides it: trained runs the link does not resume (another experiment, or a
 * run it lacks or changed), comparison runs another lesson leaves out, or the Pipeline of another experiment.
 */
export function linkDropsTraining(
  open: ExperimentSpec,
  runs: readonly (Parameters<typeof keepsCurves>[0] & { spec: ExperimentSpec["runs"][number] })[],
  pipeline: boolean,
  link: ExperimentSpec,
): boolean {
  const same = sameExperiment(link, open);
  return dropsTraining(leftOutBy(link, open, runs), pipeline, !same, same && link.preset === open.preset);
}

/** The notice's line once the crash card's "Start without the saved runs" kept the session (null: no training). */
export function setAsideLine(entry: KeptEntry | null): string {
  if (!entry)
    return "The page crashed with the experiment open before (no training in it); this one opens without it.";
  const before = `The page crashed with the experiment open before (${experimentTitle(entry.spec, entry.startModel)}: ${keptRunsText(entry)}); `;
  return entry.kept
    ? `${before}it is kept under Change… → Recent experiments, and this one opens without it.${droppedText(entry.dropped)}`
    : `${before}it was not kept (${NOT_KEPT_WHY}), and this one opens without it.${droppedText(entry.dropped)}`;
}

/**
 * Keep the saved session (as storage holds it: `saved`) in Recent experiments. `which` names it in the notice
 * ("open before": another experiment replaces it; "as saved before this page opened": a run of it starts over);
 * `howBack`, how to get it back when keeping fails.
 * @returns `line`: what the notice says (also when it held the least training of a full list, and was not
 *   kept); `ok` false when keeping failed, and the page must then not save over the old session. Never throws.
 */
export async function keepReplaced(
  persistence: LabPersistence,
  saved: SavedSession,
  savedPipeline: SavedPipeline | null,
  which = "open before",
  howBack = "open the lab's address without a link (#…) to get it back",
): Promise<{ line: string | null; ok: boolean }> {
  let entry: KeptEntry;
  try {
    entry = await persistence.archive.keep(saved, savedPipeline);
  } catch (e) {
    return {
      ok: false,
      line:
        `The experiment ${which} could not be kept (${message(e)}), so this page does not save, to leave it ` +
        `stored: ${howBack}.`,
    };
  }
  const named = `The experiment ${which} (${experimentTitle(entry.spec, entry.startModel)}: ${keptRunsText(entry)})`;
  return {
    ok: true,
    // Not kept: it held the least training of a full list (src/lab/archive.ts toForget).
    line: entry.kept
      ? `${named} is kept: reopen it from Change… → Recent experiments.${droppedText(entry.dropped)}`
      : `${named} was not kept: ${NOT_KEPT_WHY}.${droppedText(entry.dropped)}`,
  };
}
