/**
 * The training scheduler: steps the experiment's runs fairly (round-robin, one step of one run at a time) on the
 * one GPU device, under a speed cap, and applies every command (add/remove/fork, settings changes, reset) only
 * between steps, so a run never sees its settings or its neighbours change mid-step. What changed is batched
 * into RunUpdates for the page at most every `flushMs` (default 250 ms): new metric points, the samples of
 * each run's latest step, markers, status and errors.
 *
 * GPU-free: runs come from a {@link RunFactory} (the worker's real runs, or fakes in the unit tests).
 *
 * Statuses: "error" is sticky (until reset or removal); otherwise a run is "running" while the lab plays,
 * "ready" before its first step and "paused" after. A run that throws (a non-finite metric names the metric
 * and step) goes to "error" and the others go on. An error that `isDeviceLoss` recognises is the device's,
 * not the run's: the scheduler halts and waits for {@link Scheduler.recover}.
 */
import type {
  Marker,
  MetricPoint,
  RunCounters,
  RunSpec,
  RunStatus,
  RunUpdate,
  SampleView,
  SettingValue,
} from "./protocol";

/** What one step of a run gives the scheduler. */
export interface StepOutput {
  /** 1-based step number. */
  step: number;
  /** TRL metric names; `samples` and `tokens` (this step's counts) feed the cumulative x-axes. */
  metrics: Record<string, number>;
  /** The step's completions as views; called lazily, only for the last step before a flush. */
  samples?: () => SampleView[];
}

/** A run as the scheduler sees it. */
export interface SchedRun {
  /** The effective settings (all fields). */
  readonly config: Record<string, SettingValue>;
  step(): Promise<StepOutput>;
  /** Validate and apply settings from the next step on. @throws RangeError naming the bad field. */
  setConfig(patch: Record<string, SettingValue>): void;
  destroy(): void;
}

/** Makes runs (the worker's implementation owns the GPU). */
export interface RunFactory {
  /** A fresh run of `spec` from the start model. @throws RangeError on an invalid config. */
  create(spec: RunSpec): Promise<SchedRun>;
  /** A copy of `source` (weights, optimizer state, step count) with `spec`'s settings. */
  fork(source: SchedRun, sourceSpec: RunSpec, spec: RunSpec): Promise<SchedRun>;
  /** Called after each successful step, still between steps (e.g. a checkpoint every k steps). */
  afterStep?(runId: string, run: SchedRun, out: StepOutput): Promise<void>;
  /** Forget whatever afterStep kept for a run (removed, reset). */
  forget?(runId: string): void;
}

/** A run rebuilt after a lost device: the new run and the step it resumes after. */
export interface Restored {
  run: SchedRun;
  step: number;
}

export interface SchedulerOptions {
  factory: RunFactory;
  /**
   * Receives the batched updates. When it returns a promise (the page's acknowledgement, e.g. once it has
   * rendered them), no further update is sent before it settles: a page that renders slowly gets fewer,
   * larger updates instead of a backlog (backpressure).
   */
  onUpdate(updates: RunUpdate[]): unknown;
  /** Minimum time between two onUpdate calls. Default 250 ms. */
  flushMs?: number;
  /** Display label of a setting for markers (e.g. "beta" → "β"). Default: the key. */
  fieldLabel?(spec: RunSpec, key: string): string;
  /** True for an error that means the device is gone (the runs are not at fault). */
  isDeviceLoss?(e: unknown): boolean;
}

interface Pending {
  points: MetricPoint[];
  samples: (() => SampleView[]) | null;
  markers: Marker[];
  rewindTo: number | null;
  notice: string | null;
  dirty: boolean;
}

interface Entry {
  spec: RunSpec;
  run: SchedRun | null;
  step: number;
  /** Cumulative [samples, tokens] after each step: cum[s] is after step s (cum[0] = [0, 0]). */
  cum: [number, number][];
  error: string | null;
  pending: Pending;
}

const emptyPending = (): Pending => ({
  points: [],
  samples: null,
  markers: [],
  rewindTo: null,
  notice: null,
  dirty: true,
});

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A marker value: numbers with up to 4 significant digits, the rest as text. */
export function formatSetting(v: SettingValue | undefined): string {
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
  return String(v);
}

export class Scheduler {
  private entries: Entry[] = [];
  private cursor = 0;
  private playing = false;
  private looping = false;
  /** Set while the device is lost: no steps until recover(). */
  private halted = false;
  private speed = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastFlush = -Infinity;
  /** The page has not acknowledged the last update yet. */
  private awaitingAck = false;
  /** Numbers the sent updates, so only the latest acknowledgement counts. */
  private sent = 0;
  private readonly flushMs: number;

  constructor(private readonly o: SchedulerOptions) {
    this.flushMs = o.flushMs ?? 250;
  }

  // ---- queries ----

  get isPlaying(): boolean {
    return this.playing;
  }

  get isHalted(): boolean {
    return this.halted;
  }

  /** Run ids in order. */
  get runIds(): string[] {
    return this.entries.map((e) => e.spec.id);
  }

  /** Steps done by a run (undefined for an unknown id). */
  stepOf(id: string): number | undefined {
    return this.find(id)?.step;
  }

  /**
   * Run `fn` on a run's live object between steps (a consistent state, e.g. for a checkpoint export).
   * @throws RangeError for an unknown run or one without a live run object.
   */
  withRun<T>(id: string, fn: (run: SchedRun, spec: RunSpec) => Promise<T> | T): Promise<T> {
    return this.exclusive(() => {
      const e = this.find(id);
      if (!e?.run) throw new RangeError(`no run "${id}" with weights`);
      return fn(e.run, e.spec);
    });
  }

  /** The live run object (tests; use {@link withRun} to act on it between steps). */
  runOf(id: string): SchedRun | null {
    return this.find(id)?.run ?? null;
  }

  specOf(id: string): RunSpec | undefined {
    return this.find(id)?.spec;
  }

  private status(e: Entry): RunStatus {
    if (e.error !== null) return "error";
    if (this.playing) return "running";
    return e.step === 0 ? "ready" : "paused";
  }

  // ---- transport ----

  /** Train all runs round-robin until paused (or until every run is in error). */
  play(): void {
    if (this.playing) return;
    this.playing = true;
    this.touchAll();
    void this.loop();
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    this.touchAll();
  }

  /** One step of every run that is not in error, then paused. */
  async stepOnce(): Promise<void> {
    this.pause();
    for (const e of [...this.entries]) await this.exclusive(() => this.stepEntry(e));
    this.flushSoon();
  }

  /** Steps per second per run (0 = as fast as the device goes). */
  setSpeed(stepsPerSecond: number): void {
    if (!Number.isFinite(stepsPerSecond) || stepsPerSecond < 0)
      throw new RangeError(`speed must be ≥ 0 steps/s, got ${stepsPerSecond}`);
    this.speed = stepsPerSecond;
  }

  // ---- runs ----

  /**
   * Add a run (status "ready"). With `tolerant`, a run that cannot be created is kept in "error" with the
   * reason instead of rejecting (the opening experiment shows every run it was given).
   * @throws RangeError on a duplicate id or (without tolerant) an invalid config.
   */
  addRun(spec: RunSpec, tolerant = false): Promise<void> {
    return this.exclusive(async () => {
      if (this.find(spec.id)) throw new RangeError(`a run "${spec.id}" already exists`);
      let run: SchedRun | null = null;
      let error: string | null = null;
      try {
        run = await this.o.factory.create(spec);
      } catch (e) {
        if (!tolerant || this.o.isDeviceLoss?.(e)) throw e;
        error = `${spec.label} could not start: ${message(e)}`;
      }
      this.entries.push({ spec, run, step: 0, cum: [[0, 0]], error, pending: emptyPending() });
      this.flushSoon();
    });
  }

  /** Remove a run now (it is never stepped again); its resources are freed between steps. */
  removeRun(id: string): void {
    const e = this.find(id);
    if (!e) return;
    const i = this.entries.indexOf(e);
    this.entries.splice(i, 1);
    if (this.cursor > i) this.cursor--;
    void this.exclusive(() => {
      e.run?.destroy();
      this.o.factory.forget?.(id);
    });
  }

  /** Duplicate a run from its current state under `spec` (inserted right after it). */
  forkRun(sourceId: string, spec: RunSpec): Promise<void> {
    return this.exclusive(async () => {
      const src = this.find(sourceId);
      if (!src) throw new RangeError(`no run "${sourceId}" to fork`);
      if (!src.run) throw new RangeError(`${src.spec.label} has no state to fork (${src.error})`);
      if (this.find(spec.id)) throw new RangeError(`a run "${spec.id}" already exists`);
      const run = await this.o.factory.fork(src.run, src.spec, spec);
      const pending = emptyPending();
      // Points the page has not seen yet belong to the fork's history too (the page copies the rest).
      pending.points = [...src.pending.points];
      const entry: Entry = { spec, run, step: src.step, cum: [...src.cum], error: null, pending };
      this.entries.splice(this.entries.indexOf(src) + 1, 0, entry);
      this.flushSoon();
    });
  }

  /**
   * Change a run's settings. Before its first step the run is rebuilt with them (any field may change, no
   * marker); later they apply from the next step and a marker "label old → new" is recorded at that step.
   * @throws RangeError for an unknown run or an invalid value (the run keeps its settings).
   */
  setConfig(id: string, patch: Record<string, SettingValue>): Promise<void> {
    return this.exclusive(async () => {
      const e = this.find(id);
      if (!e) throw new RangeError(`no run "${id}"`);
      const spec = { ...e.spec, config: { ...e.spec.config, ...patch } };
      if (e.step === 0 || !e.run) {
        const run = await this.o.factory.create(spec);
        e.run?.destroy();
        e.run = run;
        e.error = null;
        e.spec = spec;
        this.touch(e);
        return;
      }
      const before = { ...e.run.config };
      e.run.setConfig(patch);
      e.spec = spec;
      const after = e.run.config;
      const changes = Object.keys(patch)
        .filter((k) => before[k] !== after[k])
        .map(
          (k) =>
            `${this.o.fieldLabel?.(spec, k) ?? k} ${formatSetting(before[k])} → ${formatSetting(after[k])}`,
        );
      if (changes.length) e.pending.markers.push({ runId: id, step: e.step + 1, label: changes.join(", ") });
      this.touch(e);
    });
  }

  /**
   * Continue a run from saved state (between steps): `load` puts the state into the run object; the run then
   * counts from `at` (its next point is step at.step + 1, its x-axis counters continue from at's).
   * @throws RangeError for an unknown run or one without a live run object; whatever `load` throws.
   */
  resumeRun(id: string, at: RunCounters, load: (run: SchedRun) => Promise<void> | void): Promise<void> {
    return this.exclusive(async () => {
      const e = this.find(id);
      if (!e?.run) throw new RangeError(`no run "${id}" to resume`);
      await load(e.run);
      e.step = at.step;
      e.cum = Array.from({ length: at.step + 1 }, (): [number, number] => [at.samples, at.tokens]);
      e.cum[0] = [0, 0];
      e.error = null;
      e.pending = { ...emptyPending(), rewindTo: at.step };
      this.flushSoon();
    });
  }

  /** Discard all progress: every run restarts from the start model (errors cleared); the lab pauses. */
  reset(): Promise<void> {
    this.pause();
    return this.exclusive(async () => {
      for (const e of this.entries) {
        e.run?.destroy();
        this.o.factory.forget?.(e.spec.id);
        e.run = null;
        e.step = 0;
        e.cum = [[0, 0]];
        e.pending = { ...emptyPending(), rewindTo: 0 };
        try {
          e.run = await this.o.factory.create(e.spec);
          e.error = null;
        } catch (err) {
          if (this.o.isDeviceLoss?.(err)) throw err;
          e.error = `${e.spec.label} could not start: ${message(err)}`;
        }
      }
      this.cursor = 0;
      this.flushSoon();
    });
  }

  // ---- device loss ----

  /** Stop stepping: the device is gone. Steps resume after {@link recover}. */
  halt(): void {
    this.halted = true;
  }

  /**
   * Rebuild every run after a lost device (between steps): `rebuild` gives each run's replacement and the step
   * it resumes after (its last checkpoint). The page is told to drop the history after that step, a marker
   * records what happened, and `notice` is shown. A run that cannot be rebuilt goes to "error".
   */
  recover(
    rebuild: (spec: RunSpec) => Promise<Restored>,
    explain: (spec: RunSpec, step: number) => { marker: string; notice: string },
  ): Promise<void> {
    return this.exclusive(async () => {
      for (const e of this.entries) {
        try {
          e.run?.destroy();
        } catch {
          // A lost device's buffers may already be gone.
        }
        e.run = null;
        try {
          const r = await rebuild(e.spec);
          e.run = r.run;
          const step = Math.min(r.step, e.step);
          const text = explain(e.spec, step);
          e.step = step;
          e.cum = e.cum.slice(0, step + 1);
          e.pending.points = [];
          e.pending.samples = null;
          e.pending.rewindTo = step;
          e.pending.notice = text.notice;
          e.pending.markers.push({ runId: e.spec.id, step, label: text.marker });
        } catch (err) {
          e.error = `the GPU device was lost and ${e.spec.label} could not be restored: ${message(err)}`;
        }
        this.touch(e);
      }
      this.halted = false;
      this.flushSoon();
    }).then(() => {
      if (this.playing) void this.loop();
    });
  }

  /** Put every run in "error" with `why` (the device is gone for good). */
  failAll(why: string): void {
    for (const e of this.entries) {
      e.error = why;
      this.touch(e);
    }
    this.playing = false;
    this.flushSoon();
  }

  /** Send what is pending now, acknowledged or not (tests; shutdown). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.awaitingAck = false;
    this.lastFlush = performance.now();
    const updates: RunUpdate[] = [];
    for (const e of this.entries) {
      const p = e.pending;
      if (!p.dirty) continue;
      const u: RunUpdate = { runId: e.spec.id, status: this.status(e), step: e.step, points: p.points };
      if (p.samples) u.samples = p.samples();
      if (p.markers.length) u.markers = p.markers;
      if (e.error !== null) u.error = e.error;
      if (p.rewindTo !== null) u.rewindTo = p.rewindTo;
      if (p.notice !== null) u.notice = p.notice;
      updates.push(u);
      e.pending = { ...emptyPending(), dirty: false };
    }
    if (!updates.length) return;
    const ack = this.o.onUpdate(updates);
    if (ack instanceof Promise) {
      this.awaitingAck = true;
      const n = ++this.sent;
      const done = () => {
        if (n !== this.sent) return;
        this.awaitingAck = false;
        if (this.entries.some((e) => e.pending.dirty)) this.flushSoon();
      };
      ack.then(done, done);
    }
  }

  /** Free every run. */
  dispose(): void {
    this.playing = false;
    if (this.timer !== null) clearTimeout(this.timer);
    for (const e of this.entries) e.run?.destroy();
    this.entries = [];
  }

  // ---- internals ----

  private find(id: string): Entry | undefined {
    return this.entries.find((e) => e.spec.id === id);
  }

  /** Run `fn` after everything queued before it: steps and commands never overlap. */
  private exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    const r = this.chain.then(fn);
    this.chain = r.catch(() => {});
    return r;
  }

  private touch(e: Entry): void {
    e.pending.dirty = true;
    this.flushSoon();
  }

  private touchAll(): void {
    for (const e of this.entries) e.pending.dirty = true;
    this.flushSoon();
  }

  /** Flush now if the last flush is flushMs old, else once it is. */
  private flushSoon(): void {
    if (this.timer !== null || this.awaitingAck) return;
    const wait = Math.max(0, this.lastFlush + this.flushMs - performance.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** The next run in round-robin order that can step, or null. */
  private next(): Entry | null {
    const n = this.entries.length;
    for (let k = 0; k < n; k++) {
      const i = (this.cursor + k) % n;
      const e = this.entries[i];
      if (e.error === null && e.run) {
        this.cursor = (i + 1) % n;
        return e;
      }
    }
    return null;
  }

  private async loop(): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    try {
      while (this.playing && !this.halted) {
        const e = this.next();
        if (!e) {
          this.pause();
          break;
        }
        const t0 = performance.now();
        await this.exclusive(() => this.stepEntry(e));
        const runnable = this.entries.filter((x) => x.error === null && x.run).length;
        // Speed cap: each run steps at most `speed` times a second, so one step per 1/(speed·runs) s.
        const gap =
          this.speed > 0 ? 1000 / (this.speed * Math.max(1, runnable)) - (performance.now() - t0) : 0;
        // Always yield a macrotask so commands from the page get in between steps.
        await new Promise((r) => setTimeout(r, Math.max(0, gap)));
      }
    } finally {
      this.looping = false;
    }
  }

  private async stepEntry(e: Entry): Promise<void> {
    if (!this.entries.includes(e) || e.error !== null || !e.run || this.halted) return;
    const run = e.run;
    try {
      const out = await run.step();
      const [s0, t0] = e.cum[e.cum.length - 1];
      const cum: [number, number] = [s0 + (out.metrics.samples ?? 0), t0 + (out.metrics.tokens ?? 0)];
      e.step = out.step;
      e.cum[out.step] = cum;
      e.cum.length = out.step + 1;
      e.pending.points.push({ step: out.step, samples: cum[0], tokens: cum[1], metrics: out.metrics });
      if (out.samples) e.pending.samples = out.samples;
      await this.o.factory.afterStep?.(e.spec.id, run, out);
    } catch (err) {
      if (this.o.isDeviceLoss?.(err)) {
        this.halt();
        return;
      }
      const text = message(err);
      e.error = /step \d+/.test(text) ? text : `step ${e.step + 1} failed: ${text}`;
    }
    this.touch(e);
  }
}
