/**
 * The page URL follows the lab: whenever the experiment (task, model, seed, runs and their settings), the
 * shared chart settings or the Pipeline's settings change, the hash is rewritten (runs imported for comparison left out: a link cannot
 * carry their curves) (history.replaceState, debounced, so no history entry
 * per knob move); "Share" copies the current link. Encoding and checking live in src/lab/url.ts.
 */
import { shareUrl } from "../../lab/url";
import { type LabState, sharedSpec, useLab } from "../lab_store";
import { usePipelineStore } from "./pipeline_store";
import { hashChanged } from "./saving";

/** How long the URL waits after the last change before it is rewritten (ms). */
export const URL_DEBOUNCE_MS = 300;

const linkOf = (s: LabState) =>
  shareUrl(
    sharedSpec(s),
    { xAxis: s.view.xAxis, klEstimator: s.view.klEstimator, smoothing: s.view.smoothing },
    location.href,
    usePipelineStore.getState().settings,
  );

/** Rewrite the hash now (no history entry); a no-op when it is already current. */
export function writeUrlNow(): string {
  const url = linkOf(useLab.getState());
  if (url !== location.href) history.replaceState(history.state, "", url);
  return url;
}

/**
 * Keep the hash in step with the store from now on. Start it after the experiment was opened (the store's
 * spec before that is a placeholder that must not overwrite the link). A change after a quiet spell is written
 * at once (a reload right after a typed value must open the link that names it: a reload reads the address as
 * it was when pressed, so writing it at unload is too late); changes that follow it within `debounceMs` (a
 * slider's drag) are written together once they stop. Returns the stop function.
 */
export function startUrlSync(debounceMs = URL_DEBOUNCE_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastWrite = Number.NEGATIVE_INFINITY;
  const write = () => {
    lastWrite = performance.now();
    writeUrlNow();
  };
  const later = () => {
    if (!timer && performance.now() - lastWrite >= debounceMs) return write();
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      write();
    }, debounceMs);
  };
  const unsubscribe = useLab.subscribe((s, prev) => {
    const changed =
      s.spec !== prev.spec ||
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
