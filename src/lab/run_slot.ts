/**
 * One run's place in the scheduler: its spec, live run object, step count, cumulative x-axis counters, error,
 * and what the page has not been sent yet (points, latest samples, markers, rewind, notice). Builds the run's
 * RunUpdate. Plain bookkeeping: no timing, no GPU.
 */

import { pointAfter } from "./export/columns";
import type {
  InspectView,
  LiveProgress,
  Marker,
  MarkerChange,
  MetricPoint,
  RunCounters,
  RunErrorKind,
  RunSpec,
  RunStatus,
  RunUpdate,
  SampleView,
  SettingValue,
  StepProgress,
} from "./protocol";
import type { SchedRun, StepOutput } from "./sched_run";
import { roundedSetting } from "./setting_text";

/** A stage of the step in flight and when the step began (performance.now(), ms). */
type TimedProgress = StepProgress & { began: number };

interface Pending {
  points: MetricPoint[];
  samples: (() => SampleView[]) | null;
  inspect: (() => InspectView) | null;
  markers: Marker[];
  rewindTo: number | null;
  notice: string | null;
  /** The worker stopped playing by itself (RunUpdate.stopped). */
  stopped: boolean;
  /** Where the step in flight is; null: none any more; undefined: unchanged since the last update. */
  progress: TimedProgress | null | undefined;
  dirty: boolean;
}

const emptyPending = (dirty: boolean): Pending => ({
  points: [],
  samples: null,
  inspect: null,
  markers: [],
  rewindTo: null,
  notice: null,
  stopped: false,
  progress: undefined,
  dirty,
});

/**
 * Which runs one press of Step trains: every run, except that when a pause in the middle of a round left some
 * runnable runs exactly one step behind the others, only those (so the runs end level). A larger gap (a run
 * added late) is kept: every run steps. Runs that cannot step (in error) are left out either way.
 */
export function stepOnceIds(runs: readonly { id: string; step: number; runnable: boolean }[]): string[] {
  const live = runs.filter((r) => r.runnable);
  const top = Math.max(0, ...live.map((r) => r.step));
  const low = Math.min(top, ...live.map((r) => r.step));
  return (top - low === 1 ? live.filter((r) => r.step < top) : live).map((r) => r.id);
}

/** A marker value: numbers with up to 4 significant digits (exponents below 1e-3: lr 1e-4 → 3e-5), switches "on"/"off" (as their cards say), the rest as text. */
export function formatSetting(v: SettingValue | undefined): string {
  if (typeof v === "number") return roundedSetting(v, 4);
  if (typeof v === "boolean") return v ? "on" : "off";
  return String(v);
}

export class RunSlot {
  step = 0;
  /** A step of this run is on the device now (a pause lets it land: the run reads "finishing" until then). */
  inFlight = false;
  /** Cumulative [samples, tokens] after each step: cum[s] is after step s (cum[0] = [0, 0]). */
  private cum: [number, number][] = [[0, 0]];
  private pending = emptyPending(true);
  /**
   * Settings changed since the last step, by key: the value the last step used, the value the next one will,
   * and the key's label. Their marker is recorded when the next step lands, so changes that cancel out
   * (β 0.2 → 0.3 → 0.2 while paused) leave none, and several changes of one key leave one.
   */
  private upcoming = new Map<string, { from: SettingValue; to: SettingValue; label: string }>();

  constructor(
    public spec: RunSpec,
    public run: SchedRun | null,
    /** Set: the run is in "error" (sticky until reset or a rebuild). */
    public error: string | null = null,
    /**
     * The error left the run as it was before the failed step (its reward source failed while scoring, before any
     * update): it may simply try the step again (Scheduler.rewindRun) instead of going back to a checkpoint.
     */
    public retryable = false,
  ) {}

  /** With `error`: its kind, when the card treats it apart (the device gone for good, out of memory…). */
  errorKind: RunErrorKind | null = null;
  /** With `error`: why the latest "Back to its last checkpoint" failed (said after the error, replaced by the next). */
  rewindFailure: string | null = null;

  /** Put the run in "error" with `text` (what happened), of `kind` when the card treats it apart. */
  fail(text: string, kind: RunErrorKind | null = null): void {
    this.error = text;
    this.errorKind = kind;
    this.retryable = false;
    this.rewindFailure = null;
  }

  /** Already in "error" when the GPU device is gone for good: its reason stays, its way out is a reload. */
  goneForGood(): void {
    this.errorKind = "device-gone";
    this.retryable = false;
  }

  /** Tell the page `notice` with the run's next update. */
  tell(notice: string): void {
    this.pending.notice = notice;
    this.touch();
  }

  /** Out of "error": it can step again (when it has a run object). */
  clearError(): void {
    this.error = null;
    this.errorKind = null;
    this.retryable = false;
    this.rewindFailure = null;
  }

  /** Added to be resumed from saved state: not stepped until it is (Scheduler.addRun `held`, resumeRun). */
  held = false;

  /** Not in error, with a live run and not held: it can step. */
  get runnable(): boolean {
    return this.error === null && this.run !== null && !this.held;
  }

  get dirty(): boolean {
    return this.pending.dirty;
  }

  /** "running" while playing; "finishing" after a pause until the step in flight has landed; "recovering" while
   * the device is lost (`halted`). */
  status(playing: boolean, halted = false): RunStatus {
    if (this.error !== null) return "error";
    if (halted) return "recovering";
    if (playing) return "running";
    if (this.inFlight) return "finishing";
    return this.step === 0 ? "ready" : "paused";
  }

  /** Something changed that the page should hear about (status, settings). */
  touch(): void {
    this.pending.dirty = true;
  }

  /** The worker stopped playing by itself: the page is told, with this run's next update, to show Play. */
  stopped(): void {
    this.pending.stopped = true;
    this.pending.dirty = true;
  }

  /** Record a finished step: its point (with the cumulative counters) and its samples. */
  recordStep(out: StepOutput): void {
    const [samples, tokens] = this.cum[this.cum.length - 1];
    const point = pointAfter({ samples, tokens }, out.step, out.metrics);
    this.step = out.step;
    this.cum[out.step] = [point.samples, point.tokens];
    this.cum.length = out.step + 1;
    this.pending.points.push(point);
    if (out.samples) this.pending.samples = out.samples;
    if (out.inspect) this.pending.inspect = out.inspect;
    const changes: MarkerChange[] = [...this.upcoming]
      .filter(([, c]) => c.from !== c.to)
      .map(([key, c]) => ({
        key,
        from: c.from,
        to: c.to,
        label: `${c.label} ${formatSetting(c.from)} → ${formatSetting(c.to)}`,
      }));
    this.upcoming.clear();
    if (changes.length) this.mark(out.step, changes.map((c) => c.label).join(", "), changes);
    this.touch();
  }

  /**
   * Where the step in flight is (null: it ended), and when that step began (performance.now(), ms); the page
   * hears the latest with the next update, with the time the step has run by then (LiveProgress.elapsedMs).
   */
  setProgress(p: StepProgress | null, began = performance.now()): void {
    const had = this.pending.progress === undefined ? this.shownProgress : this.pending.progress;
    if (p === null && had === null) return;
    this.pending.progress = p && { ...p, began };
    this.touch();
  }

  /** The progress the page was last sent (null: none shown). */
  private shownProgress: LiveProgress | null = null;

  /** A marker at `step`; `changes`: the setting changes it tells of (none for a resume marker). */
  mark(step: number, label: string, changes?: MarkerChange[]): void {
    this.pending.markers.push({ runId: this.spec.id, step, label, ...(changes && { changes }) });
    this.touch();
  }

  /**
   * A settings change from the next step on. When that step lands it gets one marker "label old → new, …" for
   * the keys whose value differs from the one the last step used (changes in between merge).
   */
  markChanges(
    before: Record<string, SettingValue>,
    after: Record<string, SettingValue>,
    keys: string[],
    label: (key: string) => string,
  ): void {
    for (const k of keys) {
      if (before[k] === after[k]) continue;
      const prev = this.upcoming.get(k);
      this.upcoming.set(k, { from: prev ? prev.from : before[k], to: after[k], label: label(k) });
    }
  }

  /**
   * The run's weights were put back (a checkpoint): the next step's marker names what differs from the settings
   * those weights last trained with (SchedRun.changesSinceTrained), in place of the changes pending before.
   */
  markSinceTrained(label: (key: string) => string): void {
    this.upcoming.clear();
    const c = this.run?.changesSinceTrained?.();
    if (c && this.run) this.markChanges(c.from, this.run.config, c.keys, label);
  }

  /** A change the run's settings do not show (its proxy reward model's file), marked at its next step. */
  markNextChange(c: { key: string; label: string; from: SettingValue; to: SettingValue }): void {
    this.upcoming.set(c.key, { from: c.from, to: c.to, label: c.label });
  }

  /** The run was rebuilt before its first step with new settings: nothing to mark. */
  forgetChanges(): void {
    this.upcoming.clear();
  }

  /** Go back to `step` (≤ the current one) with a new run object: the page drops the history after it. */
  rewind(run: SchedRun | null, step: number, notice: string | null = null): void {
    this.run = run;
    this.step = step;
    this.cum = this.cum.slice(0, step + 1);
    this.pending = {
      ...emptyPending(true),
      // Markers not sent yet of the steps still kept (all of them go at step 0: the run starts over).
      markers: this.pending.markers.filter((m) => m.step <= step && step > 0),
      rewindTo: step,
      notice,
      progress: this.pending.progress,
    };
    // Back at step 0 the run is rebuilt with its current settings: there is no "before" to mark a change from.
    if (step === 0) this.upcoming.clear();
  }

  /** Continue after saved counters `at` (a run loaded from a checkpoint). */
  resumeAt(at: RunCounters): void {
    this.step = at.step;
    this.cum = Array.from({ length: at.step + 1 }, (_, s): [number, number] =>
      s ? [at.samples, at.tokens] : [0, 0],
    );
    this.clearError();
    this.pending = { ...emptyPending(true), rewindTo: at.step, progress: this.pending.progress };
  }

  /** A copy under `spec` at this run's step, with the points the page has not been sent yet. */
  fork(spec: RunSpec, run: SchedRun): RunSlot {
    const f = new RunSlot(spec, run);
    f.step = this.step;
    f.cum = [...this.cum];
    f.pending.points = [...this.pending.points];
    // Markers not sent yet belong to the fork's copy of the history too (the page copies the sent ones).
    f.pending.markers = this.pending.markers.map((m) => ({ ...m, runId: spec.id }));
    // A rewind not sent yet (a lost device: back to the last checkpoint) is the fork's too: the page copies
    // the source's history as it has it.
    f.pending.rewindTo = this.pending.rewindTo;
    f.upcoming = new Map(this.upcoming); // the fork's next step uses the changed settings too
    return f;
  }

  /** The update to send (and forget), or null when nothing changed. */
  take(playing: boolean, halted = false): RunUpdate | null {
    const p = this.pending;
    if (!p.dirty) return null;
    const u: RunUpdate = {
      runId: this.spec.id,
      status: this.status(playing, halted),
      step: this.step,
      points: p.points,
    };
    if (p.samples) u.samples = p.samples();
    // The inspector shows only while paused: while playing its view (up to 32 completions' tokens) is neither
    // built nor sent; the latest step's goes out with the first update after a pause (Pause touches every run).
    if (p.inspect && !playing) u.inspect = p.inspect();
    if (p.markers.length) u.markers = p.markers;
    if (this.error !== null) {
      const f = this.rewindFailure;
      // After an error that ends a sentence ("…Reload the page to retry."), a new one; else a clause.
      u.error =
        f === null
          ? this.error
          : this.error.endsWith(".")
            ? `${this.error} Going back to its last checkpoint failed: ${f}`
            : `${this.error}; going back to its last checkpoint failed: ${f}`;
      if (this.retryable) u.retryable = true;
      if (this.errorKind) u.errorKind = this.errorKind;
      if (!this.run) u.noWeights = true;
    }
    if (p.rewindTo !== null) u.rewindTo = p.rewindTo;
    if (p.notice !== null) u.notice = p.notice;
    if (p.stopped) u.stopped = true;
    if (p.progress !== undefined) {
      let live: LiveProgress | null = null;
      if (p.progress) {
        const { began, ...stage } = p.progress;
        live = { ...stage, elapsedMs: Math.max(0, Math.round(performance.now() - began)) };
      }
      u.progress = live;
      this.shownProgress = live;
    }
    this.pending = { ...emptyPending(false), inspect: playing ? p.inspect : null };
    return u;
  }
}
