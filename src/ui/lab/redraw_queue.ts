/**
 * One chart redraw at a time. A recharts chart's redraw is one indivisible piece of main-thread work (React's
 * render and commit, then recharts' own follow-up render in the next animation frame); a dozen charts redrawn
 * in the same frame make one long task and the page stops answering input. The queue hands out redraws one
 * by one, the main charts first, and lets the browser paint and handle input between two of them, so the
 * longest task is one chart's redraw however many charts are on screen; when charts want more redraws than
 * the main thread can give, the queue stretches instead of the page freezing.
 *
 * No React here: a chart asks with `scheduleRedraw` and says `done` once its new picture is committed.
 */

/** A queued redraw. */
interface Job {
  /** Earliest time (performance.now(), ms) it may run. */
  due: number;
  /** Lower runs first among due jobs (0: the main charts; 1: the small diagnostics; 2: charts scrolled away). */
  priority: number;
  /** Insertion order, the tie-break (round-robin among charts that are due together). */
  seq: number;
  run: () => void;
}

/** Pause after one redraw finished before the next starts (ms): a frame for input and paint. */
export const GAP_MS = 16;
/** How much later (ms) a job of the next priority level counts as due. */
export const PRIORITY_MS = 1000;
/**
 * A redraw that never says done releases the queue after this long (ms), so one lost chart cannot stall it. Long
 * enough for a slow redraw to commit first: a redraw started while another is still rendering would join its
 * transition and both charts would commit in one task.
 */
export const DONE_TIMEOUT_MS = 3000;

const jobs = new Set<Job>();
let seq = 0;
/** The job whose chart is redrawing, until its done (or the timeout). */
let active: { release: () => void } | null = null;
let wake: ReturnType<typeof setTimeout> | null = null;

/**
 * Queue a redraw to run no earlier than `delayMs` from now (never synchronously). `run` starts it (e.g. sets the chart's state) and
 * receives `done`, to be called once the chart has committed its new picture (calling it twice is harmless).
 * Returns a cancel function (a no-op once the job has run).
 */
export function scheduleRedraw(
  delayMs: number,
  priority: number,
  run: (done: () => void) => void,
): () => void {
  const job: Job = {
    due: performance.now() + Math.max(0, delayMs),
    priority,
    seq: seq++,
    run: () => start(run),
  };
  jobs.add(job);
  // Never run the job inside this call: the caller has not stored the cancel function yet.
  queueMicrotask(pump);
  return () => {
    jobs.delete(job);
  };
}

/** How many redraws are waiting (tests and diagnostics). */
export function queuedRedraws(): number {
  return jobs.size;
}

/**
 * Pick the next due job: the one due earliest once each priority level counts as PRIORITY_MS later, then the
 * one queued first. The main charts go first, but a small chart that has waited PRIORITY_MS longer than them
 * goes before them, so a busy page slows the diagnostics down without ever freezing them.
 */
export function nextJob<T extends Pick<Job, "due" | "priority" | "seq">>(
  all: Iterable<T>,
  now: number,
): T | null {
  let best: T | null = null;
  const rank = (j: T) => j.due + j.priority * PRIORITY_MS;
  for (const j of all)
    if (j.due <= now && (!best || rank(j) < rank(best) || (rank(j) === rank(best) && j.seq < best.seq)))
      best = j;
  return best;
}

function start(run: (done: () => void) => void) {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearTimeout(timeout);
    active = null;
    schedule(GAP_MS);
  };
  const timeout = setTimeout(release, DONE_TIMEOUT_MS);
  active = { release };
  run(release);
}

function schedule(ms: number) {
  if (wake) clearTimeout(wake);
  wake = setTimeout(() => {
    wake = null;
    pump();
  }, ms);
}

function pump() {
  if (active) return;
  const now = performance.now();
  const job = nextJob(jobs, now);
  if (job) {
    if (wake) clearTimeout(wake);
    wake = null;
    jobs.delete(job);
    job.run();
    return;
  }
  if (jobs.size === 0) return;
  let due = Number.POSITIVE_INFINITY;
  for (const j of jobs) due = Math.min(due, j.due);
  schedule(due - now);
}
