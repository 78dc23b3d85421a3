/**
 * The lab page: controls on top, run cards on the left, the charts, samples and more metrics on the right; in
 * one column (under 980 px) the lesson and the charts come first, then the run cards, then the rest.
 * Shows loading and error states of the worker instead of an empty page.
 */
import { useEffect, useRef } from "react";
import "./lab.css";
import "./transport.css";
import "./runs.css";
import "./cards.css";
import "./charts.css";
import { InspectPanel } from "../inspect/InspectPanel";
import { useLab } from "../lab_store";
import { LessonCard } from "../lessons/LessonCard";
import { labActions } from "./actions";
import { ChartsPanel } from "./ChartsPanel";
import { MoreMetrics } from "./MoreMetrics";
import { PipelineView } from "./PipelineView";
import { RunColumn } from "./RunColumn";
import { SamplesPanel } from "./SamplesPanel";
import { openLab } from "./session";
import { TopBar } from "./TopBar";
import { ONE_COLUMN_QUERY, useMediaQuery } from "./use_media_query";

export function LabView() {
  const phase = useLab((s) => s.phase);
  const phaseError = useLab((s) => s.phaseError);
  const notice = useLab((s) => s.notice);
  const setNotice = useLab((s) => s.setNotice);
  const oneColumn = useMediaQuery(ONE_COLUMN_QUERY);
  // Open once (StrictMode runs effects twice on the same instance; the ref survives).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    openLab({
      start: labActions.start,
      exportCheckpoint: labActions.exportCheckpoint,
      loadRunCheckpoint: labActions.loadRunCheckpoint,
      pipelineModels: labActions.pipelineModels,
      pause: labActions.pause,
    });
  }, []);
  return (
    <div className="lab" data-testid="lab" data-phase={phase}>
      <TopBar />
      {/* The live region is always there, so screen readers announce a notice when it appears. */}
      <div role="status" aria-live="polite">
        {notice && (
          <div className="notice" data-testid="lab-notice">
            <span>{notice}</span>
            <button
              type="button"
              className="banner-close"
              aria-label="Dismiss"
              onClick={() => setNotice(null)}
            >
              ×
            </button>
          </div>
        )}
      </div>
      {phase === "loading" && (
        <p className="lab-phase" role="status" data-testid="lab-loading">
          <span className="spinner" aria-hidden="true" /> Loading the task and the start model on the GPU…
        </p>
      )}
      {phase === "error" && (
        <div className="lab-phase lab-phase-error" role="alert" data-testid="lab-error">
          <strong>The lab could not start.</strong> {phaseError}
        </div>
      )}
      <PipelineView />
      {oneColumn ? (
        // One column (a projector, a zoomed page): the lesson, then the charts (what a class watches once Play
        // is pressed), then the run cards in a strip, then the rest. In this order in the page too, so that
        // Tab moves in the order the eye does.
        <div className="lab-body is-one-column">
          <LessonCard />
          <ChartsPanel />
          <RunColumn />
          <SamplesPanel />
          <InspectPanel />
          <MoreMetrics />
        </div>
      ) : (
        <div className="lab-body">
          <RunColumn />
          <div className="lab-main">
            <LessonCard />
            <ChartsPanel />
            <SamplesPanel />
            <InspectPanel />
            <MoreMetrics />
          </div>
        </div>
      )}
    </div>
  );
}
