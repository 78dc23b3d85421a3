/**
 * Under a run's reward menu while a reward model it was switched to loads (the shipped proxy: its file, then
 * onnxruntime's 14 MB of WebAssembly the first time, then compiling it): what is happening and how far the
 * download got, from the worker's progress reports (./starting.ts) — not a menu that silently shows "proxy" for
 * a minute on a slow network.
 */
import { useState } from "react";
import { stageText, useStarting } from "./starting";

export function RewardLoading({ testId }: { testId: string }) {
  // Reports from before the switch (the lab's own start) are not about it.
  const [since] = useState(() => performance.now());
  const stage = useStarting((s) => (s.at >= since ? s.stage : null));
  const shown =
    stage?.stage === "download" || stage?.stage === "reward"
      ? stageText(stage)
      : { text: "Loading the reward model", progress: "" };
  // The runtime's hashed file name says little: named by what it is.
  const runtime = stage?.stage === "download" && stage.path.endsWith(".wasm");
  const text = runtime ? "Downloading onnxruntime's WebAssembly" : shown.text;
  const { progress } = shown;
  return (
    <p className="knob-note" data-testid={testId} role="status">
      <span className="spinner" aria-hidden="true" /> {text}
      <span aria-hidden="true">{progress}</span>… (the run uses it from its next step)
    </p>
  );
}
