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

/**
 * Why the page cannot load itself again now (another experiment opens by a reload), or null when it can: the
 * browser says it is offline and the page's own server does not answer either (a lab served on this machine or
 * the school's network still loads with no internet). Offline, the browser would replace the lab with its "no
 * internet" page (the runs saved, but no lab until the network is back).
 */
export async function offline(fetchFn: typeof fetch = fetch): Promise<string | null> {
  if (typeof navigator === "undefined" || navigator.onLine !== false) return null;
  try {
    await fetchFn(location.href, { method: "HEAD", cache: "no-store" });
    return null;
  } catch {
    return "This browser is offline (opening another experiment loads the page again, which needs the network)";
  }
}

/** Why the page cannot leave for another experiment ({@link offline}), or null once what must end has. */
export async function cannotLeave(): Promise<string | null> {
  const off = await offline();
  if (off) return off;
  for (const f of beforeLeaving) {
    const why = await f();
    if (why) return why;
  }
  return null;
}
