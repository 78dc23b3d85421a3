/** Who shows the kept list (the Change… dialog) hears when it may have changed. */

const listeners = new Set<() => void>();

/**
 * Call `f` when the kept list may have changed: the lab started saving (it keeps a replaced experiment just
 * before, and the list reads [] until then) or an experiment was kept. Returns the unsubscribe.
 */
export function onRecentChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Tell who shows the kept list that it may have changed. */
export function recentChanged(): void {
  for (const f of listeners) f();
}
