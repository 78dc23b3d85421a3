/**
 * "Load reward model (.onnx)": bring your own reward model. The file goes to the training worker, which checks
 * it against the task's tokenizer and the contract of docs/reward-models.md; once loaded, runs can choose
 * reward "custom". A file that does not fit (wrong inputs, outputs, dtypes, vocabulary, a corrupt file) gives a
 * notice naming what is wrong, and the lab goes on as before.
 */
import "./rewards.css";
import { FilePicker } from "./FilePicker";
import { UploadIcon } from "./icons";
import { useRewardModels } from "./reward_models";
import { loadRewardModelFile } from "./rm_file";

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
