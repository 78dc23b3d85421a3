/**
 * What the lesson picker's confirmation says (./LessonPicker.tsx): the lesson replaces this experiment (or, from
 * free play of that lesson, resumes its runs); what
 * this browser keeps of it (../lab/saving_lines.ts keptLine); that the lesson reopens where its runs stopped when
 * it is kept under Recent experiments (played in free play, or opened before: ../lab/keep_room.ts reopenedBy,
 * as the Change… dialog says it); and a Pipeline stage in training that stops first.
 */
import type { ArchiveEntry } from "../../lab/archive";
import type { ExperimentSpec } from "../../lab/protocol";
import { type Room, reopenedBy, reopensText } from "../lab/keep_room";
import { type Keeping, keptLine } from "../lab/saving_lines";
import { matchesLink } from "../lab/session_lines";

export interface LessonConfirm {
  /** The lesson's title. */
  title: string;
  /** What leaving keeps of this experiment; null: nothing trained here to keep. */
  keeping: Keeping | null;
  /** This tab saves (the store's saving is not null). */
  saves: boolean;
  /** The kept experiment the lesson's link reopens, if any. */
  reopens: ArchiveEntry | undefined;
  /** The Pipeline's stage in training, said as pipeline_store.ts stopFirstLine says it; null: none. */
  stopFirst: string | null;
  /**
   * The runs open here are the lesson's own (free play of it: same task, model, seed and run settings), so its
   * link resumes them where they are rather than replacing them (../lab/session_lines.ts matchesLink).
   */
  resumes?: boolean;
}

export function lessonConfirmText(c: LessonConfirm): string {
  if (c.resumes)
    return [
      `Open the lesson “${c.title}”? Its runs are the ones open here (the same settings): they go on from where ` +
        "they are, with the lesson's notes and step limit.",
      ...(c.stopFirst ? [c.stopFirst] : []),
    ].join(" ");
  return [
    `Open the lesson “${c.title}”? It replaces this experiment.`,
    ...(c.keeping ? [`${keptLine(c.keeping, c.saves)}.`] : []),
    ...(c.reopens ? [`“${c.title}” is kept under Recent experiments: ${reopensText(c.reopens)}.`] : []),
    ...(c.stopFirst ? [c.stopFirst] : []),
  ].join(" ");
}

/** What the picker knows when the card asks about a lesson (./LessonPicker.tsx). */
export interface PickerState {
  title: string;
  /** The lesson's experiment (its link's). */
  lesson: ExperimentSpec;
  /** The open experiment. */
  open: ExperimentSpec;
  steps: number;
  compared: number;
  pipeline: boolean;
  saves: boolean;
  /** What keeping the open experiment does to a full list (null: not known). */
  room: Room | null;
  /** The kept experiments (null: not read yet). */
  kept: readonly ArchiveEntry[] | null;
  /** The Pipeline's stage in training, as the card says it (null: none). */
  stopFirst: string | null;
}

/** What the card says about lesson `s.lesson` ({@link lessonConfirmText}'s input), from what the picker knows. */
export function lessonConfirm(s: PickerState): LessonConfirm {
  const keeps = s.steps > 0 || s.compared > 0 || s.pipeline;
  return {
    title: s.title,
    keeping: keeps ? { steps: s.steps, compared: s.compared, pipeline: s.pipeline, room: s.room } : null,
    saves: s.saves,
    reopens: s.kept ? reopenedBy(s.kept, s.lesson) : undefined,
    stopFirst: s.stopFirst,
    resumes: matchesLink(s.open, s.lesson),
  };
}
