/** Reading the "Stop at" box (./StopAt.tsx): typed text → the step to stop at, or the problem to show. */
import type { NumberField } from "../../algorithms/fields";
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
