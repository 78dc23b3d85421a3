/**
 * What the page says to screen readers about what an action did where the screen shows it only by a change
 * elsewhere (a run's card gone, a marker on the charts, a lesson's card): "Removed PPO 2.", "PPO: β 0.05 → 0.25
 * from its next step.". Read by PageAnnouncer (./TrainingAnnouncer.tsx), a polite live region. The same
 * sentence twice is said twice (a count makes it new text for the region).
 */
import { create } from "zustand";
import { reloadForEdit } from "../hot_reload";

interface Announcements {
  text: string;
  count: number;
  say(text: string): void;
}

const useAnnouncements = create<Announcements>((set) => ({
  text: "",
  count: 0,
  say: (text) => set((s) => ({ text, count: s.count + 1 })),
}));

/** Say `text` to screen readers (politely: after what they are reading). */
export function announce(text: string): void {
  useAnnouncements.getState().say(text);
}

/** The latest announcement, for the live region; a repeat ends in a zero-width space so it reads as new. */
export function useAnnouncement(): string {
  return useAnnouncements((s) => (s.count % 2 === 0 ? s.text : `${s.text}\u200b`));
}

// Editing this module under `npx vite` reloads the page, saving first (../hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
