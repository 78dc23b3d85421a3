/**
 * The open lesson's card: its title, what to watch, the papers, and progress toward its length. Shown when the
 * experiment came from a lesson (spec.preset); "Free play" drops the lesson (and its step limit) but keeps the
 * runs as they are.
 */
import { LESSONS } from "../../lab/presets/index";
import { labActions } from "../lab/actions";
import { useLab } from "../lab_store";
import "./lessons.css";

export function LessonCard() {
  const spec = useLab((s) => s.spec);
  const done = useLab((s) => Math.min(...Object.values(s.runs).map((r) => r.step), Number.POSITIVE_INFINITY));
  const setSpecField = useLab((s) => s.setLesson);
  if (!spec.preset) return null;
  const lesson = LESSONS[spec.preset];
  const steps = spec.steps ?? 0;
  const shown = Number.isFinite(done) ? done : 0;
  return (
    <section className="lesson-card" data-testid="lesson-card" data-lesson={lesson.id} aria-label="Lesson">
      <header>
        <span className="eyebrow">Lesson</span>
        <h2>{lesson.title}</h2>
        {steps > 0 && (
          <span className="lesson-progress" data-testid="lesson-progress">
            {shown >= steps ? "finished" : `step ${shown} of ${steps}`}
            <progress max={steps} value={Math.min(shown, steps)} />
          </span>
        )}
        <button
          type="button"
          className="lesson-leave"
          title="Keep the runs, drop the lesson card and its step limit"
          onClick={() => {
            setSpecField(null);
            labActions.setStopAt(0);
          }}
        >
          Free play
        </button>
      </header>
      <p className="lesson-summary">{lesson.summary}</p>
      <ol className="lesson-watch" data-testid="lesson-watch">
        {lesson.watch.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ol>
      <p className="lesson-refs">
        {lesson.refs.map((r) => (
          <a key={r.url} href={r.url} target="_blank" rel="noopener noreferrer">
            {r.label}
          </a>
        ))}
      </p>
    </section>
  );
}
