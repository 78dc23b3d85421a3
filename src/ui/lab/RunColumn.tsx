/**
 * The run cards, in the experiment's order, each in its palette colour. At one column (980 px or less) they
 * sit side by side in a strip that scrolls sideways; when they do not all fit, a bar above the strip says which
 * are in view and scrolls it a card at a time. The card first in view stays first across the switch.
 */

import { useRef } from "react";
import "./run_strip.css";
import { useShallow } from "zustand/react/shallow";
import { useLab } from "../lab_store";
import { scrollMotion } from "../motion";
import { runLooks } from "./palette";
import { RunCard } from "./RunCard";
import { useAnchorAcrossLayouts } from "./strip_anchor";
import { extents, scrollTarget, useStripView } from "./strip_view";
import { ONE_COLUMN_QUERY, useMediaQuery } from "./use_media_query";

export function RunColumn() {
  // Ids and recorded colours, compared element by element: the column re-renders only when either changes.
  const list = useLab(useShallow((s) => s.spec.runs.map((r) => r.id)));
  // Before the lab is up its runs are not in the store yet: "No runs" would be a false first impression.
  const ready = useLab((s) => s.phase === "ready");
  const recorded = useLab(useShallow((s) => s.spec.runs.map((r) => r.colour)));
  const runs = list.map((id, i) => ({ id, colour: recorded[i] }));
  const looks = runLooks(runs);
  const strip = useRef<HTMLElement>(null);
  const oneColumn = useMediaQuery(ONE_COLUMN_QUERY);
  const found = useStripView(strip, oneColumn, list.join(" "));
  useAnchorAcrossLayouts(strip, oneColumn);
  const view = oneColumn ? found : null; // the render that crosses to two columns, before the effect clears it
  // Where a smooth scroll started by ‹ › is going: a second press while it moves goes on from there.
  const heading = useRef<{ left: number; until: number } | null>(null);
  const go = (dir: 1 | -1) => {
    const el = strip.current;
    if (!el || !view) return;
    const moving = heading.current && performance.now() < heading.current.until ? heading.current.left : null;
    const from = moving ?? el.scrollLeft;
    const max = el.scrollWidth - el.clientWidth;
    if (dir > 0 ? from >= max - 1 : from <= 1) return;
    const left = scrollTarget(extents(el), dir, from, el.clientWidth, el.scrollWidth);
    heading.current = { left, until: performance.now() + 700 };
    el.scrollTo({ left, behavior: scrollMotion() });
  };
  const range =
    view && (view.first === view.last ? `${view.first + 1}` : `${view.first + 1}–${view.last + 1}`);
  // All at least half in view but some cut (a strip a little narrower than its cards): nothing is "the rest".
  const allShown = view !== null && view.first === 0 && view.last === view.count - 1;
  // Disabled in look and for screen readers, but focusable: pressing › to the end keeps the focus on it.
  const arrow = (dir: 1 | -1) => {
    const off = !view || !(dir > 0 ? view.moreRight : view.moreLeft);
    return (
      <button
        type="button"
        className="icon-button"
        aria-label={dir > 0 ? "Show the next run" : "Show the previous run"}
        aria-controls="lab-runs"
        aria-disabled={off}
        data-testid={dir > 0 ? "run-strip-next" : "run-strip-prev"}
        onClick={() => go(dir)}
      >
        {dir > 0 ? "›" : "‹"}
      </button>
    );
  };
  return (
    <>
      {view && (
        <div className="run-strip-bar" data-testid="run-strip-bar">
          <span>
            {view.first === view.last ? "Run" : "Runs"} <strong data-testid="run-strip-range">{range}</strong>{" "}
            of {view.count} in view:{" "}
            {allShown ? "scroll sideways to see them whole" : "scroll the strip sideways for the rest"}
          </span>
          <span className="run-strip-buttons">
            {arrow(-1)}
            {arrow(1)}
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
            ? `${view.moreLeft ? "left" : ""} ${view.moreRight ? "right" : ""}`.trim() || undefined
            : undefined
        }
        id="lab-runs"
        tabIndex={-1}
        // The user scrolls it themselves: the next ‹ › goes from where it is, not where a press was heading.
        onWheel={() => {
          heading.current = null;
        }}
        onPointerDown={() => {
          heading.current = null;
        }}
      >
        {/* For navigation by headings: the cards' names are h3s under it. */}
        <h2 className="visually-hidden">Runs</h2>
        {list.length === 0 && ready && (
          <p className="muted empty-runs">No runs. Add one with “+ Add run…” above.</p>
        )}
        {list.map((id) => (
          <RunCard key={id} runId={id} look={looks[id]} />
        ))}
      </aside>
    </>
  );
}
