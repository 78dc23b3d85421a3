/** "Stop at step N": the experiment pauses once every run has done N steps (a lesson sets it; 0 = never). */
import { useEffect, useState } from "react";
import { useLab } from "../lab_store";
import { labActions } from "./actions";

export function StopAt({ disabled }: { disabled?: boolean }) {
  const steps = useLab((s) => s.spec.steps ?? 0);
  const [text, setText] = useState(String(steps || ""));
  useEffect(() => setText(String(steps || "")), [steps]);
  const commit = () => {
    const n = text.trim() === "" ? 0 : Number(text);
    if (Number.isInteger(n) && n >= 0 && n <= 100000) {
      if (n !== steps) labActions.setStopAt(n);
    } else setText(String(steps || ""));
  };
  return (
    <label className="stop-at" title="Pause when every run has done this many steps (empty = never)">
      <span className="eyebrow">Stop at</span>
      <input
        data-testid="stop-at"
        inputMode="numeric"
        placeholder="—"
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") commit();
        }}
      />
    </label>
  );
}
