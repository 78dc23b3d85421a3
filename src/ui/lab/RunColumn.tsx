/** The run cards, in the experiment's order, each in its palette colour. */
import { useLab } from "../lab_store";
import { colourMap } from "./palette";
import { RunCard } from "./RunCard";

export function RunColumn() {
  const ids = useLab((s) => s.spec.runs.map((r) => r.id).join("\n"));
  const list = ids ? ids.split("\n") : [];
  const colours = colourMap(list.map((id) => ({ id })));
  return (
    <aside className="run-column" aria-label="Runs" data-testid="run-column" id="lab-runs" tabIndex={-1}>
      {list.length === 0 && <p className="muted empty-runs">No runs. Add one with “Add run” above.</p>}
      {list.map((id) => (
        <RunCard key={id} runId={id} colour={colours[id]} />
      ))}
    </aside>
  );
}
