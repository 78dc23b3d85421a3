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

/** How long the page's server has to answer before the browser counts as offline, ms. */
export const PROBE_MS = 3000;

/**
 * Why the page cannot load itself again now (another experiment opens by a reload), or null when it can: its
 * own server must answer (any HTTP answer will do) within {@link PROBE_MS}. `navigator.onLine` is no proof
 * either way: true on a Wi-Fi with no internet, false on a laptop with no network whose lab is served on it or
 * on the school's LAN. Offline, the browser would replace the lab with its "no internet" page (the runs saved,
 * but no lab until the network is back).
 */
export async function offline(fetchFn: typeof fetch = fetch): Promise<string | null> {
  try {
    await fetchFn(location.href, {
      method: "HEAD",
      cache: "no-store",
      signal: AbortSignal.timeout(PROBE_MS),
    });
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
