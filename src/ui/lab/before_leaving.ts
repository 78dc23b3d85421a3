/**
 * What must end before the page leaves its experiment for another (./saving.ts leaveFor and openRecent): each
 * hook registered here (the Pipeline's stage in training, ./pipeline_actions.ts) is awaited in turn and
 * resolves null once what it stands for has ended, or with why it could not, which keeps the experiment open.
 */

/**
 * What must end before the page leaves for another experiment (the Pipeline's stage in training): each resolves
 * null once it has, or why it could not.
 */
const beforeLeaving = new Set<() => Promise<string | null>>();

/** Run `f` (awaited) before the page leaves for another experiment; returns the unregister. */
export function onBeforeLeaving(f: () => Promise<string | null>): () => void {
  beforeLeaving.add(f);
  return () => beforeLeaving.delete(f);
}

/** End what must end before leaving ({@link onBeforeLeaving}); null when all did, else the first reason. */
export async function cannotLeave(): Promise<string | null> {
  for (const f of beforeLeaving) {
    const why = await f();
    if (why) return why;
  }
  return null;
}
