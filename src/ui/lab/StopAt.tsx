/** "Stop at step N": the experiment pauses once every run has done N steps (a lesson sets it; 0 = never). */
import { useEffect, useState } from "react";
import type { NumberField } from "../../algorithms/fields";
import { useLab } from "../lab_store";
import { labActions } from "./actions";
import { parseNumber } from "./knobs";

/** The box's number rules, as the knobs' and the Pipeline's boxes read them (decimal notation: 400, 1e3). */
const STOP_AT: NumberField = {
  key: "steps",
  label: "Stop at",
  doc: "Pause when every run has done this many steps (empty or 0 = never).",
  source: "lab",
  kind: "int",
  default: 0,
  min: 0,
  max: 100000,
};

/**
 * Typed "Stop at" text → the step to stop at (0: never, from an empty box or "0"), or the problem to show. Decimal
 * notation as in every number box of the lab: "400", "1e3"; "0x10", "12.5" and "-1" are refused.
 */
export function parseStopAt(text: string): number | string {
  const t = text.trim();
  const n = t === "" ? 0 : parseNumber(STOP_AT, t);
  if (typeof n === "number") return n;
  // "1.000" or "1,000": the number without the separator is named.
  if (n.includes("separators")) return n;
  return "a whole number of steps from 1 to 100,000, such as 400 or 1e3 (empty or 0: never stop)";
}

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
