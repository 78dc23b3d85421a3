/**
 * The lab page: controls on top, run cards on the left, the charts, samples and more metrics on the right; in
 * one column (under 980 px) the lesson and the charts come first, then the run cards, then the rest.
 * Shows loading and error states of the worker instead of an empty page.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import "./lab.css";
import "./top_bar.css";
import "./layout.css";
import "./menus.css";
import "./transport.css";
import "./runs.css";
import "./cards.css";
import "./charts.css";
import "./samples.css";
import "./more_metrics.css";
import "./seeds_summary.css";
import "./access.css";
import { prefetchExplain } from "../explain/explain_loader";
import { InspectPanel } from "../inspect/InspectPanel";
import { labStarted, useLab } from "../lab_store";
import { LessonCard } from "../lessons/LessonCard";
import { labActions } from "./actions";
import { BrokenLinkButton } from "./BrokenLinkButton";
import { ChartsPanel } from "./ChartsPanel";
import { EmbedStorageButtons } from "./EmbedStorageButtons";
import { noticeDismissed } from "./history_leave";
import { LeaveAskButtons } from "./LeaveAskButtons";
import { MoreMetrics } from "./MoreMetrics";
import { NoticeLine } from "./NoticeLine";
import { useFocusWhenOpened } from "./opened_focus";
import { PipelineView } from "./PipelineView";
import { PageTitle } from "./page_title";
import { RunColumn } from "./RunColumn";
import { SamplesPanel } from "./SamplesPanel";
import { DiscardSavedButton, SaveHereButton } from "./SaveState";
import { StartingLine } from "./StartingLine";
import { openLab } from "./session";
import { TopBar } from "./TopBar";
import { ONE_COLUMN_QUERY, useMediaQuery } from "./use_media_query";

const PANELS = {
  lesson: <LessonCard key="lesson" />,
  charts: <ChartsPanel key="charts" />,
  runs: <RunColumn key="runs" />,
  samples: <SamplesPanel key="samples" />,
  inspect: <InspectPanel key="inspect" />,
  more: <MoreMetrics key="more" />,
};
type Panel = keyof typeof PANELS;
/** Run cards on the left (layout.css puts them in the first column, across every row), the rest on the right. */
const TWO_COLUMNS: Panel[] = ["runs", "lesson", "charts", "samples", "inspect", "more"];
/**
 * One column (a projector, a zoomed page): the lesson, then the charts (what a class watches once Play is
 * pressed), then the run cards in a strip, then the rest; in this order in the page too, so that Tab moves in
 * the order the eye does.
 */
const ONE_COLUMN: Panel[] = ["lesson", "charts", "runs", "samples", "inspect", "more"];

export function LabView() {
  const phase = useLab((s) => s.phase);
  const phaseError = useLab((s) => s.phaseError);
  // An error of the browser's (no WebGPU in Web Workers): a reload gives the same, so no "Try again".
  const reloadHelps = useLab((s) => s.phaseReloadHelps);
  const started = useLab(labStarted);
  const notice = useLab((s) => s.notice);
  const setNotice = useLab((s) => s.setNotice);
  const oneColumn = useMediaQuery(ONE_COLUMN_QUERY);
  useFocusWhenOpened();
  // The explain panels' code (KaTeX), fetched once the lab is up and the page idle: it works offline later.
  useEffect(() => {
    if (phase !== "ready") return;
    const idle = globalThis.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 1000));
    idle(() => prefetchExplain());
  }, [phase]);
  // Moving a panel takes the focus off a control inside it: give it back once the panels have moved.
  const layout = useRef({ oneColumn, focused: null as Element | null });
  if (layout.current.oneColumn !== oneColumn)
    layout.current = { oneColumn, focused: typeof document === "undefined" ? null : document.activeElement };
  useLayoutEffect(() => {
    const el = layout.current.focused;
    if (!el) return;
    layout.current.focused = null;
    if (el instanceof HTMLElement && el.isConnected && document.activeElement !== el)
      el.focus({ preventScroll: true });
  });
  // Opening never throws by design; a bug that makes it throw anyway (a saved session it trips on, say) shows
  // the crash card, whose "Start without the saved runs" opens the lab without them, not a half-open lab.
  const [openError, setOpenError] = useState<Error | null>(null);
  // Open once (StrictMode runs effects twice on the same instance; the ref survives).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    openLab({
      start: labActions.start,
      // What the page keeps for a reload holds the AdamW states, so that the runs go on exactly.
      exportCheckpoint: (runId: string) => labActions.exportCheckpoint(runId, true),
      loadRunCheckpoint: labActions.loadRunCheckpoint,
      pipelineModels: labActions.pipelineModels,
      pause: labActions.pause,
    }).catch((e: unknown) => setOpenError(e instanceof Error ? e : new Error(String(e))));
  }, []);
  if (openError) throw openError; // to the ErrorBoundary (src/ui/ErrorBoundary.tsx)
  return (
    <div className="lab" data-testid="lab" data-phase={phase}>
      <PageTitle />
      <TopBar />
      {/* The live region is always there, so screen readers announce a notice when it appears. */}
      <div role="status" aria-live="polite">
        {notice && (
          <div className="notice" data-testid="lab-notice">
            <NoticeLine text={notice} />
            <BrokenLinkButton />
            <EmbedStorageButtons />
            <LeaveAskButtons />
            <SaveHereButton inNotice />
            <DiscardSavedButton inNotice />
            <button
              type="button"
              className="banner-close"
              aria-label="Dismiss"
              onClick={() => {
                setNotice(null);
                useLab.getState().setBrokenLink(null);
                noticeDismissed(); // a question in it goes too
              }}
            >
              ×
            </button>
          </div>
        )}
      </div>
      {phase === "loading" && <StartingLine />}
      {phase === "error" && (
        <div className="lab-phase lab-phase-error" role="alert" data-testid="lab-error">
          <strong>{started ? "The lab stopped:" : "The lab could not start:"}</strong> {phaseError}{" "}
          {/* Nothing was saved over by a failed start (session.ts): a reload tries the whole start again (and
              brings back the runs saved before a worker that stopped). */}
          {reloadHelps && (
            <button type="button" data-testid="lab-retry" onClick={() => location.reload()}>
              Try again
            </button>
          )}
        </div>
      )}
      <PipelineView />
      {/* One keyed list, so that crossing 980 px moves the panels instead of mounting them again (an open
          dialog, a half-typed knob, the inspector's page would be lost). */}
      <div className={oneColumn ? "lab-body is-one-column" : "lab-body"}>
        {(oneColumn ? ONE_COLUMN : TWO_COLUMNS).map((k) => PANELS[k])}
      </div>
    </div>
  );
}
