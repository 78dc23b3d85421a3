/**
 * Loading a user's ONNX reward model file (./RewardModelButton.tsx): its size limit and the load.
 */
import { errorMessage as message } from "../../util/errors";
import { useLab } from "../lab_store";
import { labActions } from "./actions";
import { useRewardModels } from "./reward_models";

/** Largest reward model file read (bytes): the lab's models are a few MB. */
export const MAX_RM_BYTES = 512 * 1024 * 1024;

/** Read, send and report one file (never throws: the outcome is a notice). */
export async function loadRewardModelFile(file: File): Promise<void> {
  const rm = useRewardModels.getState();
  const say = useLab.getState().setNotice;
  if (file.size > MAX_RM_BYTES) {
    say(
      `The reward model "${file.name}" is ${(file.size / 2 ** 20).toFixed(0)} MB; at most ${MAX_RM_BYTES / 2 ** 20} MB are read.`,
    );
    return;
  }
  rm.setLoading(file.name);
  try {
    const info = await labActions.loadRewardModel(new Uint8Array(await file.arrayBuffer()), file.name);
    const warn = info.warnings.length ? ` Note: ${info.warnings.join("; ")}.` : "";
    say(`Loaded the reward model "${info.name}": runs can now optimise it (reward: custom).${warn}`);
  } catch (e) {
    // Comlink rethrows the worker's error with its message ("<kind>: <what is wrong>"); the kind is for code.
    const what = message(e).replace(/^[a-z-]+: /, "");
    say(`The reward model "${file.name}" could not be loaded: ${what}. The runs keep their reward sources.`);
  } finally {
    rm.setLoading(null);
  }
}
