/**
 * The lab's words for itself where it saves: "this tab" in its own tab, "this copy of the lab" embedded in
 * another page (./embedded.ts), where the tab is the course page's and may hold a second copy of the lab. The
 * saving notices, tooltips and confirmations are written in tab words (./saving_tabs.ts, ./saving_lines.ts,
 * src/lab/autosave.ts …); {@link tabWords} turns them into a copy's where they are shown: the notice (LabView),
 * the save indicator (SaveState), the confirmations' lines (keptLine, stopFirstLine, whyNotKept).
 */
import { isEmbedded } from "./embedded";

/** Each phrase of a tab and what it says embedded (its capital kept). */
const RULES: readonly [RegExp, string][] = [
  [/\b([Tt])his tab\b/g, "$1his copy of the lab"],
  [/\b([Tt])he other tab\b/g, "$1he other copy of the lab"],
  [/\b([Tt])he tab that saved\b/g, "$1he copy of the lab that saved"],
  [/\b([Nn])o tab saves\b/g, "$1o copy of the lab saves"],
  [/\bthat tab\b/g, "that copy of the lab"],
  // A newer version "opened in another tab": a tab or another page's frame.
  [/\bin another tab\b/g, "in another tab or frame"],
  // Not where a line already names both ("another tab, or another embed on this page").
  [/\b([Aa])nother tab(?: of the lab)?\b(?!,| or frame)/g, "$1nother copy of the lab"],
];

/**
 * `text` (user-visible, in tab words) as the lab says it here: unchanged in its own tab; `embedded` (default:
 * {@link isEmbedded}), every "this tab", "the other tab", "the tab that saved", "no tab saves", "that tab" and
 * "another tab" names a copy of the lab instead. Idempotent; "background tabs" and other tabs are left alone.
 */
export function tabWords(text: string, embedded = isEmbedded()): string {
  if (!embedded) return text;
  return RULES.reduce((t, [from, to]) => t.replace(from, to), text);
}
