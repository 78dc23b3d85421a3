/**
 * The open lesson's card: its title, what to watch, the papers (each with Copy BibTeX: ./LessonRefs.tsx), and
 * progress toward its length. Shown when the experiment came from a lesson (spec.preset); "Free play" drops the
 * lesson (and its step limit) but keeps the runs as they are.
 */

import { useEffect, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { LESSONS } from "../../lab/presets/index";
import { lessonStatusText } from "../../lab/presets/lesson";
import { labActions } from "../lab/actions";
import { announce } from "../lab/announce";
import { usePipelineStore } from "../lab/pipeline_store";
import { stepRange, useLab } from "../lab_store";
import { LessonRefs } from "./LessonRefs";
import {
  hiddenItems,
  lessonRunsBack,
  lessonTimeLeft,
  progressText,
  removedLessonRuns,
} from "./lesson_card_text";
import { lessonChanges, lessonChangesText } from "./lesson_changes";
import { asTrained, lessonVerdict, verdictNumbers, verdictOnChangedRuns } from "./lesson_verdict";
import "./lessons.css";
import { errorMessage } from "../../util/errors";
import { scrollMotion } from "../motion";

/** `hiddenItems` of the list `el` (null: none yet), kept current as it scrolls or resizes. */
function useHiddenItems(el: HTMLOListElement | null): number[] {
  const [hidden, setHidden] = useState<number[]>([]);
  useEffect(() => {
    if (!el) return;
    const measure = () => {
      const next = hiddenItems(el);
      setHidden((h) => (h.join() === next.join() ? h : next));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    el.addEventListener("scroll", measure, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener("scroll", measure);
    };
  }, [el]);
  return hidden;
}

export function LessonCard() {
  const spec = useLab((s) => s.spec);
  // The lesson is finished once every run that trains got there (its step limit pauses the lab then); a run
  // added later, catching up, is named instead of pulling the count back to its step.
  const [top, low] = useLab(useShallow(stepRange));
  const setSpecField = useLab((s) => s.setLesson);
  const left = useLab((s) =>
    s.spec.steps ? lessonTimeLeft(Object.values(s.runs), s.spec.steps, s.speed) : null,
  );
  // A callback ref: another lesson's list is a new element (keyed below), measured afresh.
  const [list, setList] = useState<HTMLOListElement | null>(null);
  const hidden = useHiddenItems(list);
  const canAdd = useLab((s) => s.phase === "ready");
  // Before the first step: what to do (a student opening a lesson link sees the card, not the Play button's hint).
  const idle = useLab((s) => !s.playing && s.steppingFrom === null);
  const runs = useLab((s) => s.runs);
  const handedOff = usePipelineStore((s) => s.handedOff);
  if (!spec.preset) return null;
  const lesson = LESSONS[spec.preset];
  const steps = spec.steps ?? 0;
  const shown = Math.min(top, steps);
  const planned = lesson.experiment(spec.seed);
  const removed = removedLessonRuns(planned.runs, spec.runs);
  const changes = lessonChangesText(lessonChanges(planned, spec, handedOff), planned);
  const plannedSteps = planned.steps ?? steps;
  // Finished once the lesson's own runs are at its length (or beyond: the check reads the steps up to it); a run
  // added beside them, catching up, does not hold the verdict back.
  const own = planned.runs.flatMap((p) => (runs[p.id] ? [runs[p.id].step] : []));
  const ownLow = own.length > 0 ? Math.min(...own) : low;
  const verdict =
    plannedSteps > 0 && ownLow >= plannedSteps
      ? lessonVerdict(lesson, runs, plannedSteps, planned.runs)
      : null;
  // Compared as the runs trained: a setting turned after the last step neither qualifies the verdict nor hides one.
  const changedRuns = verdictOnChangedRuns({
    planned: planned.runs,
    trained: spec.runs.map((r) => asTrained(r, runs[r.id]?.untrained)),
    markers: Object.fromEntries(Object.values(runs).map((r) => [r.spec.id, r.markers])),
    steps: plannedSteps,
    setupChanged: spec.task !== planned.task || spec.model !== planned.model || handedOff !== null,
  });
  return (
    <section className="lesson-card" data-testid="lesson-card" data-lesson={lesson.id} aria-label="Lesson">
      <header>
        <span className="eyebrow">Lesson</span>
        {/* Focusable by script: a lesson opened from the page puts the keyboard here (opened_focus.ts). */}
        <h2 tabIndex={-1}>{lesson.title}</h2>
        {steps > 0 && (
          <span className="lesson-progress" data-testid="lesson-progress">
            {progressText(top, low, steps, planned.steps ?? steps)}
            {left && <span className="muted"> · {left}</span>}
            {top === 0 && idle && (
              <span className="lesson-start" data-testid="lesson-start">
                {" "}
                · press{" "}
                <span role="img" aria-label="Play">
                  ▶
                </span>{" "}
                (or space) to train
              </span>
            )}
            <progress max={steps} value={shown} aria-label="Lesson progress" />
          </span>
        )}
        <button
          type="button"
          className="lesson-leave"
          title="Keep the runs, drop the lesson card and its step limit"
          onClick={() => {
            setSpecField(null);
            labActions.setStopAt(0);
            // The card (and this button) goes: the keyboard goes to Play rather than to the page's top (to the
            // Lessons menu while the lab loads: Play is disabled until then).
            const play = document.querySelector<HTMLButtonElement>('[data-testid="play"]');
            (play && !play.disabled
              ? play
              : document.querySelector<HTMLElement>('[data-testid="lesson-picker"]')
            )?.focus();
            announce("Free play: the lesson's card and its step limit are gone; the runs stay as they are.");
          }}
        >
          Free play
        </button>
      </header>
      <p className="lesson-summary">{lesson.summary}</p>
      <p className={`lesson-status muted status-${lesson.status.kind}`} data-testid="lesson-status">
        {lessonStatusText(lesson.status)}
      </p>
      {removed.length > 0 && (
        <p className="lesson-removed muted" data-testid="lesson-removed">
          Removed from this lesson: {removed.join(", ")}. What to watch below refers to{" "}
          {removed.length > 1 ? "them" : "it"}.{" "}
          <button
            type="button"
            className="lesson-add-back"
            data-testid="lesson-add-back"
            disabled={!canAdd}
            title="The lesson's settings, from step 0 (Reset restarts every run together)"
            onClick={() => {
              for (const r of lessonRunsBack(planned.runs, useLab.getState().spec.runs))
                labActions
                  .addRunSpec(r)
                  .catch((e) =>
                    useLab.getState().setNotice(`Adding ${r.label} back failed: ${errorMessage(e)}`),
                  );
            }}
          >
            Add {removed.length > 1 ? "them" : "it"} back
          </button>
        </p>
      )}
      {changes && (
        <p className="lesson-removed muted" data-testid="lesson-changes">
          {changes}
        </p>
      )}
      {verdict && (
        <div className="lesson-verdict" data-testid="lesson-verdict" role="status">
          {verdict.kind === "verdict" ? (
            <>
              <strong>
                {verdict.verdict.ok ? "The effect showed" : "The effect did not show on this run"}
              </strong>{" "}
              (the lesson's check over its {plannedSteps} steps: {verdict.verdict.summary}
              {changedRuns ? "; on the runs as changed" : ""}
              ). <span className="muted">{verdictNumbers(verdict.verdict)}.</span>{" "}
              {verdict.verdict.ok
                ? "Try another seed (Change…) or turn a setting and press Reset, or pick the next lesson."
                : "The notes' numbers were measured on seeds 0–2: try another seed (Change…); the same seed trains the same numbers again."}
            </>
          ) : (
            <>No verdict: {verdict.reason}.</>
          )}
        </div>
      )}
      {/* Open at first; folded, the charts below come into view (a long lesson fills a 1280 × 800 screen). */}
      <details className="lesson-watch-box" open>
        <summary>What to watch ({lesson.watch.length})</summary>
        <ol className="lesson-watch" data-testid="lesson-watch" ref={setList} key={lesson.id}>
          {lesson.watch.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ol>
        {hidden.length > 0 && (
          <button
            type="button"
            className="lesson-more"
            data-testid="lesson-more"
            title="This list scrolls: show the next item"
            onClick={() => {
              const next = list?.children[hidden[0] - 1] as HTMLElement | undefined;
              if (list && next) list.scrollTo({ top: next.offsetTop, behavior: scrollMotion() });
            }}
          >
            More below ↓ ({hidden.length > 1 ? `items ${hidden[0]}–${hidden.at(-1)}` : `item ${hidden[0]}`} of{" "}
            {lesson.watch.length})
          </button>
        )}
      </details>
      <LessonRefs refs={lesson.refs} />
    </section>
  );
}
