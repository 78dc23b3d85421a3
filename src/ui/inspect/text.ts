/** Token text for the inspectors' tables: whitespace made visible. */

/** A token as shown in a table cell: spaces as "␣", newlines as "↵", tabs as "⇥"; special tokens as they are. */
export function tokenLabel(text: string): string {
  return text.replace(/ /g, "␣").replace(/\n/g, "↵").replace(/\t/g, "⇥");
}
