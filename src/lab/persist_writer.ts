/**
 * Which tab saves the lab's session (./persist.ts LabPersistence.claim): the `meta` record naming it, and the
 * error a write of a tab that no longer saves is refused with.
 */

/** The `meta` record naming the connection that saves the session now, rewritten by each of its writes. */
export interface WriterRecord {
  writer: string;
  savedAt: number;
  /** That connection's writes so far (a page that opens sees whether another tab wrote while it started). */
  wrote?: number;
}

/** The `meta` key of the {@link WriterRecord}. */
export const WRITER_KEY = "writer";

/**
 * A write refused because another tab claimed the saved session after this one (LabPersistence.claim): its
 * last writes must not land in the session that tab now saves.
 */
export class NotWriterError extends Error {
  override readonly name = "NotWriterError";
  constructor() {
    super("another tab saves this browser's experiment now");
  }
}
