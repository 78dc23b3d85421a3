/**
 * The page URL follows the lab: whenever the experiment (task, model, seed, runs and their settings), the
 * shared chart settings or the Pipeline's settings change, the hash is rewritten (runs imported for comparison left out: a link cannot
 * carry their curves) (history.replaceState, throttled: no history entry per knob move); "Share" copies the current link. Encoding and checking live in src/lab/url.ts.
 */
import { shareUrl } from "../../lab/url";
import { type LabState, sharedSpec, useLab } from "../lab_store";
import { writeAddress } from "./embedded";
import { usePipelineStore } from "./pipeline_store";
import { hashChanged } from "./saving";

/**
 * At most one rewrite of the URL per this many ms (a slider's drag; Chrome throttles a page that calls
 * history.replaceState more than ~100 times in 10 s), the latest state always written by the end of it.
 */
export const URL_THROTTLE_MS = 150;

const linkOf = (s: LabState) =>
  shareUrl(
    sharedSpec(s),
    { xAxis: s.view.xAxis, klEstimator: s.view.klEstimator, smoothing: s.view.smoothing },
    location.href,
    usePipelineStore.getState().settings,
  );

/** The runs imported for comparison, as a key ("" when none). */
const comparisons = (s: LabState) =>
  s.spec.runs
    .filter((r) => s.runs[r.id]?.comparison)
    .map((r) => r.id)
    .join(" ");

/**
 * Rewrite the hash now; a no-op when it is already current. `push`: as a new history entry, for a refused move
 * through history (Back offline): replacing would write this experiment over the entry Back moved to. Embedded
 * in another page, it replaces even then (./embedded.ts: the host's Back must not land in the lab again).
 */
export function writeUrlNow(push = false): string {
  const url = linkOf(useLab.getState());
  if (url !== location.href) writeAddress(url, push);
  return url;
}

/**
 * Keep the hash in step with the store from now on. Start it after the experiment was opened (the store's
 * spec before that is a placeholder that must not overwrite the link). A change of the experiment is written at
 * once; a view's (the smoothing slider's drag) too, unless the last write was less than `throttleMs` ago: then
 * the latest state is written when that time is up (a reload
 * reads the address as it was when pressed, so writing it at unload is too late, and a reload soon after a few
 * quick changes must find the last of them; a reviewer's three changes and a reload 0.5 s later found the first,
 * with a 300 ms debounce that restarted with every change). Returns the stop function.
 */
export function startUrlSync(throttleMs = URL_THROTTLE_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastWrite = Number.NEGATIVE_INFINITY;
  const write = () => {
    lastWrite = performance.now();
    writeUrlNow();
  };
  const later = () => {
    if (timer) return; // the write already due takes the latest state
    const wait = lastWrite + throttleMs - performance.now();
    if (wait <= 0) return write();
    timer = setTimeout(() => {
      timer = null;
      write();
    }, wait);
  };
  const unsubscribe = useLab.subscribe((s, prev) => {
    // The experiment's own changes (a knob, a run added) are written at once, each: the autosaver saves them at
    // once too, and a reload compares the two (a link newer than the saved runs' settings starts them over).
    if (s.spec !== prev.spec) return write();
    // A run becoming one for comparison (an Import adds the run, then marks it) leaves the link at once too.
    if (s.runs !== prev.runs && comparisons(s) !== comparisons(prev)) return write();
    const changed =
      s.view.xAxis !== prev.view.xAxis ||
      s.view.klEstimator !== prev.view.klEstimator ||
      s.view.smoothing !== prev.view.smoothing;
    if (changed) later();
  });
  const unsubscribePipeline = usePipelineStore.subscribe((s, prev) => {
    if (s.settings !== prev.settings) later();
  });
  writeUrlNow();
  return () => {
    if (timer) clearTimeout(timer);
    unsubscribe();
    unsubscribePipeline();
  };
}

/**
 * A link pasted into this tab's address bar changes only the hash, which loads nothing: reload so that it
 * opens. Every hashchange is the user's (the sync above uses replaceState, which fires none). Start it as
 * early as possible (the lab may still be loading). Returns the stop function.
 */
export function reloadOnPastedLink(): () => void {
  // Like any way out of an experiment, it saves the runs' latest steps first (they are kept: Recent experiments).
  const onHashChange = () => hashChanged();
  window.addEventListener("hashchange", onHashChange);
  return () => window.removeEventListener("hashchange", onHashChange);
}

/** Copy `text` with a hidden textarea and execCommand (pages without the async clipboard permission). */
function copyFallback(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export interface ShareResult {
  url: string;
  /** False when neither clipboard route worked: show the link for the user to copy. */
  copied: boolean;
}

/** Copy `text` to the clipboard (async clipboard, else execCommand); false when neither worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return copyFallback(text);
  }
}

/** Bring the URL up to date and copy it to the clipboard. */
export async function share(): Promise<ShareResult> {
  const url = writeUrlNow();
  return { url, copied: await copyText(url) };
}
