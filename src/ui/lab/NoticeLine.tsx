/**
 * The text of the lab's notice (LabView), in the words of where the lab runs: the notices are written for the
 * lab in its own tab, and embedded in another page they name "this copy of the lab" instead (./tab_words.ts).
 */
import { tabWords } from "./tab_words";

/** The notice's text `text` as shown (the store keeps it as written, for the buttons that look for a line). */
export function NoticeLine({ text }: { text: string }) {
  return <span>{tabWords(text)}</span>;
}
