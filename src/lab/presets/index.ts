/**
 * The guided lessons in the order the lab lists them, and their links. A lesson is an ordinary experiment
 * (src/lab/url.ts) with `preset` set, so "load a lesson" = open its link. The table itself is in ./all.ts.
 */

import { DEFAULT_SHARED_VIEW } from "../settings";
import { shareUrl } from "../url";
import { LESSONS } from "./all";
import type { PresetId } from "./ids";

export type { Lesson } from "./lesson";
export { LESSONS };

/** The lesson's link on `base` (the page URL; its hash is replaced). */
export function lessonUrl(id: PresetId, base: string, seed = 0): string {
  const l = LESSONS[id];
  return shareUrl(l.experiment(seed), { ...DEFAULT_SHARED_VIEW, ...l.view }, base);
}
