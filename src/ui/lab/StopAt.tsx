/** "Stop at step N": the experiment pauses once every run has done N steps (a lesson sets it; 0 = never). */
import { useEffect, useState } from "react";
import { useLab } from "../lab_store";
import { labActions } from "./actions";
import { parseStopAt } from "./stop_at_parse";

export function StopAt({ disabled }: { disabled?: boolean }) {
  const steps = useLab((s) => s.spec.steps ?? 0);
  const [text, setText] = useState(String(steps || ""));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => setText(String(steps || "")), [steps]);
  const commit = () => {
    const n = parseStopAt(text);
    if (typeof n === "number") {
      setProblem(null);
      if (n !== steps) labActions.setStopAt(n);
      setText(String(n || ""));
    } else {
      setProblem(n);
      setText(String(steps || ""));
    }
  };
  return (
    <label className="stop-at" title="Pause when every run has done this many steps (empty or 0 = never)">
      <span className="eyebrow">Stop at</span>
      <input
        type="text"
        data-testid="stop-at"
        inputMode="numeric"
        data-space-plays=""
        placeholder="—"
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          // Space plays or pauses the lab (space_toggle.ts), with the typed limit applied first.
          if (e.key === "Enter" || e.key === " ") commit();
        }}
        aria-invalid={problem !== null}
        aria-describedby={problem ? "stop-at-problem" : undefined}
      />
      {problem && (
        <span id="stop-at-problem" className="stop-at-problem" role="alert">
          {problem}
        </span>
      )}
    </label>
  );
}
