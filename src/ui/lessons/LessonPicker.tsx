/**
 * "Lessons…": the guided experiments (src/lab/presets). Picking one opens its link — a lesson is an ordinary
 * shareable experiment — so the page reloads into it (the URL sync's hashchange handler).
 */
import { PRESET_IDS, type PresetId } from "../../lab/presets/ids";
import { LESSONS, lessonUrl } from "../../lab/presets/index";

export function LessonPicker({ disabled }: { disabled?: boolean }) {
  return (
    <select
      className="add-run lesson-picker"
      data-testid="lesson-picker"
      aria-label="Open a guided lesson"
      value=""
      disabled={disabled}
      onChange={(e) => {
        const id = e.target.value as PresetId | "";
        if (id) location.assign(lessonUrl(id, location.href));
      }}
    >
      <option value="">Lessons…</option>
      {PRESET_IDS.map((id, i) => (
        <option key={id} value={id} title={LESSONS[id].summary}>
          {i + 1}. {LESSONS[id].title}
        </option>
      ))}
    </select>
  );
}
