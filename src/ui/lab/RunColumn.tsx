/** The run cards, in the experiment's order, each in its palette colour. */
import { useLab } from "../lab_store";
import { colourMap } from "./palette";
import { RunCard } from "./RunCard";

export function RunColumn() {
  // Ids and recorded colours as one string, so the column re-renders only when either changes.
  const key = useLab((s) => s.spec.runs.map((r) => `${r.id}\u0000${r.colour ?? ""}`).join("\n"));
  const runs = key
    ? key.split("\n").map((line) => {
        const [id, c] = line.split("\u0000");
        return c === "" ? { id } : { id, colour: Number(c) };
      })
    : [];
  const list = runs.map((r) => r.id);
  const colours = colourMap(runs);
  return (
    <aside className="run-column" aria-label="Runs" data-testid="run-column" id="lab-runs" tabIndex={-1}>
      {list.length === 0 && <p className="muted empty-runs">No runs. Add one with “Add run” above.</p>}
      {list.map((id) => (
        <RunCard key={id} runId={id} colour={colours[id]} />
      ))}
    </aside>
  );
}
