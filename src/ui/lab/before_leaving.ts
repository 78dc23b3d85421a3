/**
 * What must end before the page leaves its experiment for another (./saving.ts leaveFor and openRecent): each
 * hook registered here (the Pipeline's stage in training, ./pipeline_actions.ts) is awaited in turn and
 * resolves null once what it stands for has ended, or with why it could not, which keeps the experiment open.
 */
import { withLine, without } from "../client_notices";
import { useLab } from "../lab_store";

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

/** After this long without an answer from the page's server, the notice says it is still being asked, ms. */
export const PROBE_MS = 3000;
/** How long the page's server has to answer at most before opening another experiment is given up, ms. */
export const PROBE_LIMIT_MS = 30_000;

/** The notice's line while the page's server has not answered yet (taken out once it has, or was given up). */
export const CHECKING_LINE = `Checking the page's server before opening the other experiment (no answer after ${PROBE_MS / 1000} s yet)…`;

/** Why the page stays when its request failed: no network (the browser answers at once then). */
export const OFFLINE_LINE =
  "This browser is offline (opening another experiment loads the page again, which needs the network)";

/**
 * Why the page cannot load itself again now (another experiment opens by a reload), or null when it can: its
 * own server must answer (any HTTP answer will do). A request that fails (no network) refuses at once
 * ({@link OFFLINE_LINE}); a slow server is not offline: after `slowMs` (default {@link PROBE_MS}) the notice says
 * it is still asked ({@link CHECKING_LINE}), and the page waits up to `limitMs` (default {@link PROBE_LIMIT_MS})
 * before it gives up. `navigator.onLine` is no proof either way: true on a Wi-Fi with no internet, false on a
 * laptop with no network whose lab is served on it or on the school's LAN. Offline, the browser would replace the
 * lab with its "no internet" page (the runs saved, but no lab until the network is back).
 */
export function offline(
  fetchFn: typeof fetch = fetch,
  limitMs = PROBE_LIMIT_MS,
  slowMs = PROBE_MS,
): Promise<string | null> {
  // One probe at a time: a second asker (the Change… dialog and Back at once) shares the one in flight, its
  // request, its wait and its answer (its own arguments unused), so neither takes out the other's checking line.
  if (!probing)
    probing = probe(fetchFn, limitMs, slowMs).finally(() => {
      probing = null;
    });
  return probing;
}

/** The probe in flight ({@link offline}), or null. */
let probing: Promise<string | null> | null = null;

async function probe(fetchFn: typeof fetch, limitMs: number, slowMs: number): Promise<string | null> {
  const limit = new AbortController();
  const giveUp = setTimeout(() => limit.abort(), limitMs);
  const slow = setTimeout(() => checking(true), slowMs);
  try {
    await fetchFn(location.href, { method: "HEAD", cache: "no-store", signal: limit.signal });
    return null;
  } catch {
    return limit.signal.aborted
      ? `The page's server did not answer within ${limitMs / 1000} s (opening another experiment loads the page again from it)`
      : OFFLINE_LINE;
  } finally {
    clearTimeout(giveUp);
    clearTimeout(slow);
    checking(false);
  }
}

/** Put {@link CHECKING_LINE} at the notice's end, or take it out. */
function checking(on: boolean): void {
  const notice = useLab.getState().notice;
  const next = on ? withLine(notice, CHECKING_LINE) : without(notice, [CHECKING_LINE]);
  if (next !== notice) useLab.getState().setNotice(next);
}

/**
 * Why the page cannot leave for another experiment ({@link offline}), or null once what must end has. `probed`:
 * the answer of a probe the caller has just made (the Change… dialog's, before it stopped a Pipeline stage),
 * taken as it is instead of asking the server again (undefined: ask).
 */
export async function cannotLeave(probed?: string | null): Promise<string | null> {
  const off = probed === undefined ? await offline() : probed;
  if (off) return off;
  for (const f of beforeLeaving) {
    const why = await f();
    if (why) return why;
  }
  return null;
}
