/**
 * Under the dev server (`npx vite`) only: editing a module that holds the page's state — a zustand store, the
 * lab's client and its training worker, the savers — reloads the page instead of hot-replacing that module.
 * Replaced in place, a new store or client would start empty beside the old one (the lab went idle with no run
 * cards and its old worker kept training, unseen, holding its GPU device). Each such module ends with
 *
 *   if (import.meta.hot) {
 *     import.meta.hot.accept(); // this module is the update's boundary: its importers are not re-run
 *     import.meta.hot.dispose(() => reloadForEdit());
 *   }
 *
 * (written out in the module itself: Vite finds `import.meta.hot.accept` in its source; `hot.decline()` does
 * nothing in Vite 8). Before the reload, the hooks of {@link onHotReload} run (the lab pauses and saves its
 * latest curves and checkpoints, ./lab/saving.ts) and then `stop` (the client terminates its worker). Checked by
 * test/code/hot_reload.test.ts (every such module has the handler) and by hand with e2e/dev_hmr_check.ts.
 */
import { leaveUnasked } from "../util/leave_prompt";

/** What runs before an edit reloads the page (the lab's save-latest), each awaited in turn. */
const beforeReload = new Set<() => Promise<void>>();
/** The reload under way (several edited modules share it). */
let reloading: Promise<void> | null = null;

/** Run `f` (awaited; a rejection is ignored) before an edit reloads the page; returns the unregister. */
export function onHotReload(f: () => Promise<void>): () => void {
  beforeReload.add(f);
  return () => beforeReload.delete(f);
}

/**
 * An edited module holding app state is about to be replaced: run the {@link onHotReload} hooks, then `stop`,
 * then reload the page without the browser's "Leave site?" (the latest state was just saved). Called again
 * while it runs (several modules edited at once), it returns the same promise; `stop` then runs after the
 * hooks too. Never throws.
 */
export function reloadForEdit(stop?: () => void): Promise<void> {
  reloading ??= (async () => {
    for (const f of beforeReload) await f().catch(() => {});
  })();
  return reloading.then(() => {
    try {
      stop?.();
    } catch {
      // the reload ends what it would have stopped anyway
    }
    if (typeof location === "undefined") return; // vitest
    leaveUnasked();
    location.reload();
  });
}
