/** The run cards, in the experiment's order, each in its palette colour. */

import { useShallow } from "zustand/react/shallow";
import { useLab } from "../lab_store";
import { colourMap } from "./palette";
import { RunCard } from "./RunCard";

export function RunColumn() {
  // Ids and recorded colours, compared element by element: the column re-renders only when either changes.
  const list = useLab(useShallow((s) => s.spec.runs.map((r) => r.id)));
  const recorded = useLab(useShallow((s) => s.spec.runs.map((r) => r.colour)));
  const runs = list.map((id, i) => ({ id, colour: recorded[i] }));
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
