/**
 * Leave for another experiment from the Change… dialog (./ExperimentDialog.tsx): a Pipeline stage in training
 * stops first (done at the step it reached, it is saved with the Pipeline: ./pipeline_actions.ts stop), but only
 * when the page's server answers (./before_leaving.ts offline): offline, the page cannot leave, and the stage would
 * end for nothing. That answer is the one leaving goes by (./saving.ts leaveFor `probed`): the server is asked
 * once, so a slow one costs one wait (up to PROBE_LIMIT_MS, 30 s), not two, and a second ask that gives up after
 * the stage has stopped cannot keep the page here. Never throws but for what `pipelineActions.stop` throws.
 */
import { offline } from "./before_leaving";
import { PIPELINE_STOP_MS, pipelineActions } from "./pipeline_actions";
import { trainingLine, usePipelineStore } from "./pipeline_store";
import { leaveFor } from "./saving";

/**
 * Open `url` (another experiment's link), stopping a Pipeline stage in training first; `phase` is told as the
 * stop begins ("stopping") and as saving does after it ("saving"). @returns false: the page stays (the notice
 * says why).
 */
export async function leaveStopping(
  url: string,
  phase: (p: "stopping" | "saving") => void = () => {},
): Promise<boolean> {
  if (!trainingLine(usePipelineStore.getState())) return leaveFor(url);
  const why = await offline();
  if (why === null) {
    phase("stopping");
    await pipelineActions.stop(PIPELINE_STOP_MS);
    phase("saving");
  }
  return leaveFor(url, undefined, false, why);
}
