/**
 * The browser tab's title: what a teacher with several lessons open in tabs reads to find one. "▶ Reward
 * over-optimisation · step 38 — RLHF Playground" while it trains; the task's name when it is no lesson; no step
 * before the first.
 */
import { useEffect } from "react";
import { LESSONS } from "../../lab/presets/index";
import type { ExperimentSpec } from "../../lab/protocol";
import { stepRange, useLab } from "../lab_store";
import { TASK_NAMES } from "./experiment_names";

export const APP_TITLE = "RLHF Playground";

/** The title for an experiment, its furthest run's step and whether it trains. */
export function pageTitle(
  spec: Pick<ExperimentSpec, "task" | "preset">,
  step: number,
  playing: boolean,
): string {
  // A kept spec may name a lesson an older version had.
  const name = (spec.preset && LESSONS[spec.preset]?.title) || TASK_NAMES[spec.task];
  return `${playing ? "▶ " : ""}${name}${step > 0 ? ` · step ${step}` : ""} — ${APP_TITLE}`;
}

/**
 * Keeps document.title on pageTitle of the lab's state; renders nothing. A component of its own, so that a
 * new step re-renders it alone, not the page around it.
 */
export function PageTitle(): null {
  const spec = useLab((s) => s.spec);
  const step = useLab((s) => stepRange(s)[0]);
  const playing = useLab((s) => s.playing);
  useEffect(() => {
    document.title = pageTitle(spec, step, playing);
  }, [spec, step, playing]);
  return null;
}
