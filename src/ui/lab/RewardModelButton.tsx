/**
 * "Load reward model (.onnx)": bring your own reward model. The file goes to the training worker, which checks
 * it against the task's tokenizer and the contract of docs/reward-models.md; once loaded, runs can choose
 * reward "custom". A file that does not fit (wrong inputs, outputs, dtypes, vocabulary, a corrupt file) gives a
 * notice naming what is wrong, and the lab goes on as before.
 */
import "./rewards.css";
import { errorMessage as message } from "../../util/errors";
import { useLab } from "../lab_store";
import { labActions } from "./actions";
import { FilePicker } from "./FilePicker";
import { UploadIcon } from "./icons";
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

export function RewardModelButton({ disabled }: { disabled: boolean }) {
  const custom = useRewardModels((s) => s.custom);
  const loading = useRewardModels((s) => s.loading);
  const title = custom
    ? `Loaded: ${custom.name} (reward "custom"). Load another .onnx file to replace it.`
    : "Bring your own reward model: an .onnx file with inputs input_ids and attention_mask (int64 [B, T], left-padded) and one output scores (float32 [B]), over the task's tokenizer (docs/reward-models.md)";
  return (
    <FilePicker
      testId="load-rm"
      className="load-rm"
      title={title}
      aria-label={
        custom ? `Reward model ${custom.name} loaded; load another (.onnx)` : "Load reward model (.onnx)"
      }
      disabled={disabled || loading !== null}
      accept=".onnx"
      onFiles={([file]) => loadRewardModelFile(file)}
    >
      <UploadIcon />{" "}
      <span className="load-rm-text">{loading ? "Checking…" : custom ? "Custom RM ✓" : "Load RM"}</span>
    </FilePicker>
  );
}
