/**
 * The run cards, in the experiment's order, each in its palette colour. At one column (980 px or less) they
 * sit side by side in a strip that scrolls sideways; when they do not all fit, a bar above the strip says which
 * are in view and scrolls it a card at a time.
 */

import { useRef } from "react";
import { useShallow } from "zustand/react/shallow";
import { useLab } from "../lab_store";
import { colourMap } from "./palette";
import { RunCard } from "./RunCard";
import { extents, scrollTarget, useStripView } from "./strip_view";
import { ONE_COLUMN_QUERY, useMediaQuery } from "./use_media_query";

export function RunColumn() {
  // Ids and recorded colours, compared element by element: the column re-renders only when either changes.
  const list = useLab(useShallow((s) => s.spec.runs.map((r) => r.id)));
  const recorded = useLab(useShallow((s) => s.spec.runs.map((r) => r.colour)));
  const runs = list.map((id, i) => ({ id, colour: recorded[i] }));
  const colours = colourMap(runs);
  const strip = useRef<HTMLElement>(null);
  const oneColumn = useMediaQuery(ONE_COLUMN_QUERY);
  const view = useStripView(strip, oneColumn, list.join(" "));
  const go = (dir: 1 | -1) => {
    const el = strip.current;
    if (!el || !view) return;
    el.scrollTo({ left: scrollTarget(extents(el), view, dir, el.clientWidth), behavior: "smooth" });
  };
  const range =
    view && (view.first === view.last ? `${view.first + 1}` : `${view.first + 1}–${view.last + 1}`);
  return (
    <>
      {view && (
        <div className="run-strip-bar" data-testid="run-strip-bar">
          <span>
            Runs <strong data-testid="run-strip-range">{range}</strong> of {view.count} in view: scroll the
            strip sideways for the others
          </span>
          <span className="run-strip-buttons">
            <button
              type="button"
              className="icon-button"
              aria-label="Show the previous run"
              data-testid="run-strip-prev"
              disabled={view.first === 0}
              onClick={() => go(-1)}
            >
              ‹
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label="Show the next run"
              data-testid="run-strip-next"
              disabled={view.last === view.count - 1}
              onClick={() => go(1)}
            >
              ›
            </button>
          </span>
        </div>
      )}
      <aside
        ref={strip}
        className="run-column"
        aria-label="Runs"
        data-testid="run-column"
        data-more={
          view
            ? `${view.first > 0 ? "left" : ""} ${view.last < view.count - 1 ? "right" : ""}`.trim()
            : undefined
        }
        id="lab-runs"
        tabIndex={-1}
      >
        {list.length === 0 && <p className="muted empty-runs">No runs. Add one with “Add run” above.</p>}
        {list.map((id) => (
          <RunCard key={id} runId={id} colour={colours[id]} />
        ))}
      </aside>
    </>
  );
}
