/**
 * After the user opened another experiment from the page (a lesson from the Lessons menu, Change…'s "Start new
 * experiment", a pasted link), the new page load puts the keyboard where the experiment begins and says what
 * opened: a lesson's card heading, or Play. Without it the focus is at the page's top and a screen reader hears
 * nothing of what came (leaveFor raises the request, ./saving.ts; the lab takes it once ready, ./LabView.tsx).
 */
import { useEffect } from "react";
import { PRESET_IDS } from "../../lab/presets/ids";
import { LESSONS } from "../../lab/presets/index";
import type { ExperimentSpec } from "../../lab/protocol";
import { useLab } from "../lab_store";
import { announce } from "./announce";
import { experimentTitle } from "./experiment_names";
import { raiseTabFlag, takeTabFlag } from "./tab_flag";

/** The sessionStorage key of the request (this tab only; taken by the next load). */
export const OPENED_KEY = "rlhf-playground.opened";

/** Ask the next load of this tab to focus and announce the experiment it opens. */
export function markOpened(): void {
  raiseTabFlag(OPENED_KEY);
}

/**
 * What is said once an experiment the user opened is ready: "Lesson 3 opened: KL estimators k1, k2, k3, 16
 * steps. Press Play (or space) to train." or "Opened Arithmetic · nano (random init) · seed 3. …". Pure.
 */
export function openedSentence(spec: ExperimentSpec): string {
  const start = "Press Play (or space) to train.";
  const lesson = spec.preset ? LESSONS[spec.preset] : undefined;
  if (spec.preset && lesson) {
    const steps = spec.steps ? `, ${spec.steps} steps` : "";
    return `Lesson ${PRESET_IDS.indexOf(spec.preset) + 1} opened: ${lesson.title}${steps}. ${start}`;
  }
  const runs = spec.runs.map((r) => r.label).join(", ");
  return `Opened ${experimentTitle(spec)}, with ${runs || "no runs"}. ${start}`;
}

/**
 * Once the lab is ready and saved runs are restored (Play is disabled until then: a disabled button takes no
 * focus), if this load was asked to: focus the lesson card's heading (or Play) and say what opened.
 */
export function useFocusWhenOpened(): void {
  const ready = useLab((s) => s.phase === "ready" && !s.restoring);
  useEffect(() => {
    if (!ready || !takeTabFlag(OPENED_KEY)) return;
    const spec = useLab.getState().spec;
    announce(openedSentence(spec));
    // Not when the reader already went somewhere while it loaded (the Lessons menu, a run's setting).
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const target =
      document.querySelector<HTMLElement>('[data-testid="lesson-card"] h2') ??
      document.querySelector<HTMLElement>('[data-testid="play"]');
    target?.focus();
  }, [ready]);
}
