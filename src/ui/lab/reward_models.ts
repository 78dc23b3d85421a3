/**
 * The page's view of the worker's reward models (zustand): the user's ONNX reward model once the worker has
 * checked and loaded it, and whether a file is being loaded. No model bytes or weights here: the worker has
 * them. A new worker (src/ui/client.ts start) starts without a user model.
 */
import { create } from "zustand";
import type { RewardModelInfo } from "../../lab/protocol";
import { reloadForEdit } from "../hot_reload";

export interface RewardModelsState {
  /** The loaded user model ("custom"), or null. */
  custom: RewardModelInfo | null;
  /** The file being checked, or null. */
  loading: string | null;
  setCustom(info: RewardModelInfo | null): void;
  setLoading(name: string | null): void;
}

export const useRewardModels = create<RewardModelsState>()((set) => ({
  custom: null,
  loading: null,
  setCustom: (custom) => set({ custom }),
  setLoading: (loading) => set({ loading }),
}));

/**
 * The reward choices a run cannot switch to now, each with what to do first (the run card offers them disabled):
 * "custom" without a loaded model, "pipeline" before the Pipeline's models were handed to the runs.
 */
export function missingRewards(customLoaded: boolean, handedOff: boolean): Record<string, string> {
  return {
    ...(!customLoaded && { custom: "load an .onnx with Load RM first" }),
    ...(!handedOff && { pipeline: "train it in the Pipeline, then Use in RL" }),
  };
}

// Editing this module under `npx vite` reloads the page, saving first (../hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
