/** The run cards, in the experiment's order, each in its palette colour. */

import { useEffect, useRef } from "react";
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
  // A run added next to others (Add run, Duplicate, Import) lands at the end of the column, often below the
  // fold: bring its card into view. Not the runs a page opens with.
  const before = useRef<string[]>([]);
  useEffect(() => {
    const added = list.filter((id) => !before.current.includes(id));
    if (before.current.length > 0 && added.length === 1)
      document
        .querySelector(`[data-testid="run-card-${CSS.escape(added[0])}"]`)
        ?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    before.current = list;
  }, [list]);
  return (
    <aside className="run-column" aria-label="Runs" data-testid="run-column" id="lab-runs" tabIndex={-1}>
      {list.length === 0 && <p className="muted empty-runs">No runs. Add one with “Add run” above.</p>}
      {list.map((id) => (
        <RunCard key={id} runId={id} colour={colours[id]} />
      ))}
    </aside>
  );
}
