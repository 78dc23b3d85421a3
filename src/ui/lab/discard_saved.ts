/**
 * "Discard them": the way out when the experiment saved in this browser cannot be read (a record of another
 * version of the lab, or a damaged one). The page does not save over it (./session.ts), on every visit, until
 * the user — asked first — discards it; then this tab saves its runs, at once, as on any start. The experiments
 * kept under Recent experiments are not touched.
 */
import { create } from "zustand";
import type { LabPersistence } from "../../lab/persist";
import { errorMessage as message } from "../../util/errors";
import { reloadForEdit } from "../hot_reload";
import { useLab } from "../lab_store";
import type { Saving } from "./saving";

/** The offer: `discard` while the saved experiment cannot be read and this page does not save; else null. */
export const useDiscardSaved = create<{ discard: (() => Promise<void>) | null }>(() => ({ discard: null }));

export interface DiscardOffer {
  persistence: LabPersistence;
  /** Why the saved runs could not be read (for the question). */
  unread: string;
  /** The notice's line that says this page does not save (replaced once discarded). */
  line: string;
  /** Start saving (./saving.ts startSaving, and make it the open one). */
  begin(): Saving;
  /** Ask the user (default: window.confirm). */
  ask?: (question: string) => boolean;
}

/** Offer "Discard them" until it is done or `withdraw`n. */
export function offerDiscard(o: DiscardOffer): { withdraw(): void } {
  const ask = o.ask ?? ((q: string) => globalThis.confirm?.(q) ?? false);
  const discard = async () => {
    const q =
      `The runs saved in this browser cannot be read by this version of the lab (${o.unread}). ` +
      "Discard them for good, and save this page's runs instead? The experiments kept under Recent experiments stay.";
    if (!ask(q)) return;
    useDiscardSaved.setState({ discard: null });
    const lab = useLab.getState();
    let discarded: boolean;
    try {
      discarded = await o.persistence.discardUnreadable();
    } catch (e) {
      const now = useLab.getState().notice ?? "";
      lab.setNotice(
        `${now} Discarding the saved runs failed (${message(e)}); this page still does not save.`.trim(),
      );
      useDiscardSaved.setState({ discard });
      return;
    }
    if (!discarded) {
      // Another tab discarded them and saved its own runs since (or what failed at the start was passing): what
      // is saved now reads, and is not this page's to delete.
      const line =
        "The saved runs read now (another tab saved its own over them, or the failure at the start has passed), " +
        "so this page leaves them be: reload to open them (this page's runs are not saved).";
      const now = useLab.getState().notice;
      useLab.getState().setNotice(now?.includes(o.line) ? now.replace(o.line, line) : line);
      return;
    }
    const saving = o.begin();
    lab.setSaveFailed(null);
    const done =
      "The saved runs that could not be read were discarded: this page saves its runs from now on.";
    const now = useLab.getState().notice;
    useLab
      .getState()
      .setNotice(now?.includes(o.line) ? now.replace(o.line, done) : now ? `${now} ${done}` : done);
    // Failures are the autosaver's to report (the notice, the "not saved" indicator).
    await saving.autosaver.flush().catch(() => undefined);
    await saving.autosaver.checkpoint().catch(() => undefined);
  };
  useDiscardSaved.setState({ discard });
  return {
    withdraw: () => {
      if (useDiscardSaved.getState().discard === discard) useDiscardSaved.setState({ discard: null });
    },
  };
}

// Editing this module under `npx vite` reloads the page, saving first (../hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
