/**
 * "Lessons…": the guided experiments (src/lab/presets). Picking one opens its link — a lesson is an ordinary
 * shareable experiment — so the page reloads into it (the URL sync's hashchange handler). When the current
 * runs have trained, a card asks first: the lesson replaces them (they are kept under Recent experiments, and
 * the card names the kept experiment that keeping them would forget, or says they would not be kept: ../lab/use_room.ts);
 * so it does when only that would be lost (runs imported for comparison, Pipeline models). A lesson kept under
 * Recent experiments (its free play, say) reopens where its runs stopped, as the card then says (./picker_lines.ts).
 */
import { useRef, useState } from "react";
import { keepsCurves } from "../../lab/archive";
import { PRESET_IDS, type PresetId } from "../../lab/presets/ids";
import { LESSONS, lessonUrl } from "../../lab/presets/index";
import { lessonStatusMark } from "../../lab/presets/lesson";
import { actionSelectKeyDown } from "../lab/action_select";
import { ConfirmCard } from "../lab/ConfirmButton";
import { stopFirstLine, trainingLine, usePipelineStore } from "../lab/pipeline_store";
import { leaveFor } from "../lab/saving";
import { pipelineKept, useKeptList, useRoom } from "../lab/use_room";
import { trainedSteps, useLab } from "../lab_store";
import { useApp } from "../store";
import { lessonConfirm, lessonConfirmText } from "./picker_lines";

const open = (id: PresetId) => leaveFor(lessonUrl(id, location.href));

/** Each lesson's length in steps (what a teacher plans a class by). */
const LESSON_STEPS = Object.fromEntries(PRESET_IDS.map((id) => [id, LESSONS[id].experiment(0).steps ?? 0]));

/** Lessons on the sentiment task: ~50-token answers, minutes a step on a software GPU (arithmetic: seconds). */
const SLOW_ON_SOFTWARE = new Set(PRESET_IDS.filter((id) => LESSONS[id].experiment(0).task === "sentiment"));

export function LessonPicker({ disabled }: { disabled?: boolean }) {
  const select = useRef<HTMLSelectElement>(null);
  const [pending, setPending] = useState<PresetId | null>(null);
  const steps = useLab(trainedSteps);
  const saves = useLab((s) => s.saving !== null);
  // A Pipeline stage in training stops first (saving.ts leaveFor): the confirmation says so.
  const training = usePipelineStore(trainingLine);
  const compared = useLab((s) => Object.values(s.runs).filter((r) => r.comparison && keepsCurves(r)).length);
  const pipeline = usePipelineStore(pipelineKept);
  const keeps = steps > 0 || compared > 0 || pipeline;
  // What keeping this experiment would forget of a full list, or that it would not be kept: asked first then.
  const roomFor = useRoom(saves && keeps);
  const room = pending ? roomFor(LESSONS[pending].experiment(0)) : null;
  // A lesson kept under Recent experiments (its free play, say) reopens where its runs stopped: said too.
  const kept = useKeptList(true);
  /** Whether opening lesson `id` would forget a kept experiment, or not keep this one. */
  const losing = (id: PresetId) => {
    const r = roomFor(LESSONS[id].experiment(0));
    return r !== null && (r.notKept || r.forget.length > 0);
  };
  const openId = useLab((s) => s.spec.preset ?? null);
  const openNo = openId ? PRESET_IDS.indexOf(openId) + 1 : 0;
  const software = useApp((s) => s.adapter?.isSoftware ?? false);
  return (
    <>
      <select
        ref={select}
        className="add-run lesson-picker"
        data-testid="lesson-picker"
        aria-label="Open a guided lesson"
        title={openId ? `Open now: lesson ${openNo}, ${LESSONS[openId].title}` : undefined}
        value=""
        disabled={disabled}
        onKeyDown={actionSelectKeyDown}
        onChange={(e) => {
          const id = e.target.value as PresetId | "";
          if (!id) return;
          // Nothing trained, but a full list would lose something: asked too (the room is read already).
          if (steps > 0 || training || losing(id)) setPending(id);
          else open(id);
        }}
      >
        {/* The closed picker names the open lesson; its entry is marked and not offered again (its link would
            resume the runs saved with its settings, not restart them: Reset does that). */}
        <option value="">{openId ? `Lesson ${openNo}…` : "Lessons…"}</option>
        {PRESET_IDS.map((id, i) => (
          <option key={id} value={id} title={LESSONS[id].summary} disabled={id === openId}>
            {i + 1}. {LESSONS[id].title} · {LESSON_STEPS[id]} steps
            {id === openId ? " (open now; Reset restarts it)" : ""}
            {lessonStatusMark(LESSONS[id].status)}
            {software && SLOW_ON_SOFTWARE.has(id) ? " · minutes a step on this software GPU" : ""}
          </option>
        ))}
      </select>
      {pending && (
        <ConfirmCard
          anchor={select}
          message={lessonConfirmText(
            lessonConfirm({
              title: LESSONS[pending].title,
              lesson: LESSONS[pending].experiment(0),
              open: useLab.getState().spec,
              steps,
              compared,
              pipeline,
              saves,
              room,
              kept,
              stopFirst: training ? stopFirstLine(training, saves) : null,
            }),
          )}
          confirmLabel="Open lesson"
          testId="lesson-picker"
          onConfirm={() => open(pending)}
          onClose={(how) => {
            setPending(null);
            // From the keyboard, back to the picker (not the page's body); after the mouse, space plays again.
            if (how === "key") select.current?.focus();
          }}
        />
      )}
    </>
  );
}
