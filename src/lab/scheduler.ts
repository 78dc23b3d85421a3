/**
 * The training scheduler: steps the experiment's runs fairly (one step of one run at a time, in rounds of one
 * turn per run; a run behind the others, added or restarted later, takes two turns a round until it has caught
 * up, so the curves come level while no run waits) on the one GPU device, under a speed cap, and applies every command (add/remove/fork, settings changes, reset) only
 * between steps, so a run never sees its settings or its neighbours change mid-step. What changed is batched
 * into RunUpdates for the page at most every `flushMs` (default 250 ms): new metric points, the samples of
 * each run's latest step, markers, status and errors.
 *
 * GPU-free: runs come from a {@link RunFactory} (the worker's real runs, or fakes in the unit tests). The run
 * slots, the queue that keeps commands and steps apart and the batched updates are ./sched_base.ts's; adding,
 * forking, removing and renaming runs ./sched_runs.ts's.
 *
 * Statuses: "error" is sticky (until reset or removal); otherwise a run is "running" while the lab plays,
 * "finishing" after a pause until its step in flight has landed, "ready" before its first step and "paused"
 * after. A run that throws (a non-finite metric names the metric
 * and step) goes to "error" and the others go on. An error that `isDeviceLoss` recognises is the device's,
 * not the run's: the scheduler halts and waits for {@link Scheduler.recover}.
 */

import { errorMessage as message } from "../util/errors";
import { Turns } from "../util/turns";
import type { RunCounters, RunSpec, SettingValue } from "./protocol";
import { restartedSpecs } from "./run_labels";
import { RunSlot, stepOnceIds } from "./run_slot";
import { type RestoreText, rebuildSlot, restoreSlot } from "./sched_restore";
import { Rounds } from "./sched_rounds";
import type { GoneForGood, Restored, ResumeNote, SchedRun, SchedulerOptions } from "./sched_run";
import { SchedulerRuns } from "./sched_runs";
import { takeStep } from "./sched_step";

export type { GoneForGood, Restored, RunFactory, SchedRun, SchedulerOptions, StepOutput } from "./sched_run";

export class Scheduler extends SchedulerRuns {
  /** Whose turn it is (a run behind takes two turns a round) and the speed cap's gap between steps. */
  private readonly rounds = new Rounds<RunSlot>();
  /** Changes on Play and Reset: a Step in progress (or queued) stops taking turns. */
  private stepOnceToken = 0;
  /** The Steps pressed so far, one after another. */
  private readonly steps = new Turns();
  private looping = false;
  /** The run whose step was on the device when it was lost, its steps lost in a row, and whether the latest
   * loss (not yet recovered from) was one of them. */
  private lostOn: { id: string; times: number; latest: boolean } | null = null;
  private speed = 0;
  private stopAt = 0;
  private readonly progressAfterMs: number;

  constructor(o: SchedulerOptions) {
    super(o);
    this.progressAfterMs = o.progressAfterMs ?? 1000;
  }

  get isHalted(): boolean {
    return this.halted;
  }

  /**
   * The run whose step lost the device this time and the last time too, with no step of it landed in between
   * (a step too large for this GPU, a driver's time limit): resuming would lose it again. Null otherwise (a loss
   * while paused, or a run's first).
   */
  get repeatedLoss(): RunSpec | null {
    const l = this.lostOn;
    return l?.latest && l.times >= 2 ? (this.find(l.id)?.spec ?? null) : null;
  }

  /**
   * Train all runs in turn (a run behind takes two turns) until paused (or every run is in error). The first step
   * waits for `after` (settings changes asked for before Play, still being prepared: the worker's reward models).
   */
  play(after?: Promise<unknown>): void {
    if (this.playing) return;
    this.stepOnceToken++; // Play takes over from a Step: its turns not taken yet are dropped
    this.playing = true;
    this.touchAll();
    if (after) void after.then(() => this.loop());
    else void this.loop();
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    this.touchAll();
  }

  /**
   * One step of every run that is not in error, then paused; after a pause in the middle of a round, only the
   * runs one step behind (run_slot.ts stepOnceIds). Planned after a step still in flight has landed, and after
   * an earlier Step's turns (two presses: two steps of every run), and after `after` (settings changes asked for
   * before the Step, still being prepared). Play or Reset meanwhile drops the turns not yet taken (the step on
   * the device lands).
   */
  stepOnce(after?: Promise<unknown>): Promise<void> {
    this.pause();
    const token = this.stepOnceToken;
    return this.steps.take(async () => {
      await after;
      return this.stepRound(token);
    });
  }

  private async stepRound(token: number): Promise<void> {
    if (token !== this.stepOnceToken) return;
    const ids = await this.exclusive(() =>
      stepOnceIds(this.entries.map((e) => ({ id: e.spec.id, step: e.step, runnable: e.runnable }))),
    );
    for (const e of this.entries.filter((x) => ids.includes(x.spec.id))) {
      if (token !== this.stepOnceToken) break;
      await this.exclusive(() => (token === this.stepOnceToken ? this.stepEntry(e) : undefined));
    }
    // Now, not at the throttle's next tick: the page stops showing the Step when this resolves.
    this.flush();
  }

  /** Steps per second per run (0 = as fast as the device goes). */
  setSpeed(stepsPerSecond: number): void {
    if (!Number.isFinite(stepsPerSecond) || stepsPerSecond < 0)
      throw new RangeError(`speed must be ≥ 0 steps/s, got ${stepsPerSecond}`);
    this.speed = stepsPerSecond;
  }

  /**
   * Pause once every run has done `steps` steps (a lesson's length); runs that got there are not stepped again
   * while others catch up. 0 = no limit. @throws RangeError on a negative or fractional count.
   */
  setStopAt(steps: number): void {
    if (!Number.isInteger(steps) || steps < 0)
      throw new RangeError(`the step limit must be a whole number ≥ 0, got ${steps}`);
    this.stopAt = steps;
  }

  /**
   * Change a run's settings. Before its first step the run is rebuilt with them (any field may change, no
   * marker); later they apply from the next step and a marker "label old → new" is recorded at that step. A
   * run whose weights were lost (in error after a failed restore) is rebuilt from the start model and starts
   * over at step 0 (the page drops its history).
   * @throws RangeError for an unknown run or an invalid value (the run keeps its settings).
   */
  setConfig(id: string, patch: Record<string, SettingValue>): Promise<void> {
    return this.exclusive(async () => {
      const e = this.find(id);
      if (!e) throw new RangeError(`no run "${id}"`);
      const spec = { ...e.spec, config: { ...e.spec.config, ...patch } };
      if (e.step === 0 || !e.run) {
        await rebuildSlot(e, spec, this.entries, this.o.factory);
        this.flushSoon();
        return;
      }
      const before = { ...e.run.config };
      e.run.setConfig(patch);
      e.spec = spec;
      e.markChanges(before, e.run.config, Object.keys(patch), this.labelFor(spec));
      e.touch();
      this.flushSoon();
    });
  }

  /**
   * Continue a run from saved state (between steps): `load` puts the state into the run object; the run then
   * counts from `at` (its next point is step at.step + 1, its x-axis counters continue from at's). What `load`
   * has to tell (a ResumeNote) comes back as the page's notice, after the run's label; its change is marked at
   * the next step. Resolves with that notice, or null.
   * @throws RangeError for an unknown run or one without a live run object; whatever `load` throws.
   */
  resumeRun(
    id: string,
    at: RunCounters,
    load: (run: SchedRun) => Promise<ResumeNote | null | undefined> | undefined,
  ): Promise<string | null> {
    return this.exclusive(async () => {
      const e = this.find(id);
      if (!e?.run) throw new RangeError(`no run "${id}" to resume`);
      const note = await load(e.run);
      e.held = false;
      e.resumeAt(at);
      e.markSinceTrained(this.labelFor(e.spec));
      if (note?.change) e.markNextChange(note.change);
      this.flushSoon();
      return note ? `${e.spec.label} ${note.notice}` : null;
    });
  }

  /**
   * Discard all progress: every run restarts from the start model (errors cleared); the lab pauses.
   * `between` runs after the old runs are freed and before the new ones are made (e.g. a new start model).
   * A run added held (an import whose checkpoint is still loading) has trained nothing here: it is kept as it
   * is, and resumes at its saved step when its checkpoint is in (a new run would take the checkpoint at step 0
   * and count on from its saved step, with the page's copy of its curve cleared).
   */
  reset(between?: () => void): Promise<void> {
    this.pause();
    this.stepOnceToken++; // a Step's turns not taken yet (or a Step pressed before) are not the new runs'

    return this.exclusive(async () => {
      // A fork restarts like the others: its label stops saying it is one (as the page's store does).
      const restarted = restartedSpecs(this.entries.filter((e) => !e.held).map((e) => e.spec));
      const specs = new Map(restarted.map((s) => [s.id, s]));
      this.entries = this.entries.map((old) => {
        if (old.held) return old;
        old.run?.destroy();
        this.o.factory.forget?.(old.spec.id);
        const e = new RunSlot(specs.get(old.spec.id) ?? old.spec, null);
        e.rewind(null, 0);
        return e;
      });
      between?.();
      // Over a copy: a run removed while another is made leaves the list (the loop would skip its neighbour).
      for (const e of [...this.entries]) {
        if (!this.entries.includes(e) || e.held) continue;
        try {
          const run = await this.o.factory.create(e.spec);
          if (this.entries.includes(e)) e.run = run;
          else this.free(e.spec.id, run);
        } catch (err) {
          if (this.o.isDeviceLoss?.(err)) throw err;
          e.fail(`${e.spec.label} could not start: ${message(err)}`, "could-not-start");
        }
      }
      this.rounds.clear();
      this.flushSoon();
    });
  }

  /** A setting's label in `spec`'s markers ("beta" → "β"). */
  private labelFor(spec: RunSpec): (key: string) => string {
    return (k) => this.o.fieldLabel?.(spec, k) ?? k;
  }

  /** Stop stepping: the device is gone. Steps resume after {@link recover}; the page sees "recovering". */
  halt(): void {
    this.halted = true;
    for (const e of this.entries) e.touch();
    this.flushSoon();
  }

  /**
   * Rebuild every run after a lost device (between steps): `rebuild` gives each run's replacement and the step
   * it resumes after (its last checkpoint). The page is told to drop the history after that step, a marker
   * records what happened, and `notice` is shown. A run that cannot be rebuilt goes to "error". Training goes
   * on if it was playing, unless `resume` is (or returns, asked after `reacquire`) false: then paused, and the
   * page is told so (RunUpdate.stopped).
   * `reacquire`, when given, runs first in the same turn: it gets a device back and returns null, or returns why
   * none could be had (the runs then go to "error" with that text, and nothing is rebuilt: {@link failAll}). A command sent
   * meanwhile (Reset, add, fork, a settings change) waits for the whole recovery: it would otherwise make runs on
   * the lost device, fail, and then see its runs put back at their checkpoints.
   */
  recover(
    rebuild: (spec: RunSpec) => Promise<Restored>,
    explain: RestoreText,
    resume: boolean | (() => boolean) = true,
    reacquire?: () => Promise<GoneForGood | null>,
  ): Promise<void> {
    return this.exclusive(async () => {
      const failed = reacquire ? await reacquire() : null;
      if (failed !== null) {
        // Every run is in error: nothing is recovering any more (a run added or reset after reads "ready").
        this.failAll(failed.error, failed.notice);
        this.halted = false;
        return;
      }
      const resuming = typeof resume === "function" ? resume() : resume;
      // Over a copy, as reset: a removal while a run is rebuilt must not skip the next one. (A run removed
      // meanwhile is freed by its removal, queued after this.)
      for (const e of [...this.entries]) {
        if (!this.entries.includes(e)) continue;
        try {
          await restoreSlot(e, rebuild, explain, this.entries);
          e.markSinceTrained(this.labelFor(e.spec));
        } catch (err) {
          // The new device was lost too: the recovery queued after this one rebuilds the run.
          if (this.o.isDeviceLoss?.(err)) continue;
          // Its weights are gone: not "Try the step again" (a reward failure's offer before the loss).
          e.fail(`the GPU device was lost and ${e.spec.label} could not be restored: ${message(err)}`);
        }
        e.touch();
      }
      this.halted = false;
      if (this.lostOn) this.lostOn.latest = false;
      if (!resuming) {
        this.pause();
        for (const e of this.entries) e.stopped();
      }
      this.flushSoon();
    }).then(() => {
      if (this.playing) void this.loop();
    });
  }

  /**
   * Send a run in error back to its last checkpoint (`rebuild`; the start model when it has none), between
   * steps: its history after that step is dropped, a marker says so, and it can train again (after a settings
   * change, say a lower learning rate). Returns the step it resumes after. A run whose error is `retryable` (its
   * reward source failed before any update) only leaves the error: it tries the step again from where it is.
   * @throws RangeError when the run is unknown or not in error; whatever `rebuild` throws (the run stays in
   *   error, without a run object: a settings change then rebuilds it from the start model).
   */
  rewindRun(
    id: string,
    rebuild: (spec: RunSpec) => Promise<Restored>,
    explain: RestoreText,
  ): Promise<number> {
    return this.exclusive(async () => {
      const e = this.find(id);
      if (!e || e.error === null) throw new RangeError(`run "${id}" is not in error`);
      // It never started: no checkpoint, and its start model would be refused the same way.
      if (e.errorKind === "could-not-start")
        throw new RangeError(
          `${e.spec.label} never started: change its settings and it starts again with them`,
        );
      // Its reward source failed before any update: it tries the step again from where it is.
      if (e.retryable && e.run) {
        e.clearError();
        e.touch();
        this.flushSoon();
        return e.step;
      }
      try {
        const step = await restoreSlot(e, rebuild, explain, this.entries);
        e.markSinceTrained(this.labelFor(e.spec));
        e.clearError();
        return step;
      } catch (err) {
        // The error stays what happened; the latest failure to go back replaces the one before.
        e.rewindFailure = message(err);
        throw err;
      } finally {
        e.touch();
        this.flushSoon();
      }
    });
  }

  /**
   * The device is gone for good: every run goes to "error" with `why` and the cards offer a reload; a run already
   * in error keeps its own reason (only its way out becomes the reload). `notice` is said once, with the first run.
   */
  failAll(why: string, notice?: string): void {
    for (const e of this.entries) {
      if (e.error === null) e.fail(why, "device-gone");
      else e.goneForGood();
      e.touch();
    }
    if (notice) this.entries[0]?.tell(notice);
    this.playing = false;
    this.flushSoon();
  }

  /** The run can step now: runnable and under the step limit. */
  private canStep(e: RunSlot): boolean {
    return e.runnable && (this.stopAt === 0 || e.step < this.stopAt);
  }

  private async loop(): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    try {
      while (this.playing && !this.halted) {
        const t0 = performance.now();
        // The run is picked once the step before has landed: a round planned then sees every run's step.
        const stepped = await this.exclusive(async () => {
          if (!this.playing || this.halted) return true; // paused while queued: nothing more to do
          const e = this.rounds.next(() => this.entries.filter((x) => this.canStep(x)));
          if (e) await this.stepEntry(e);
          return e !== null;
        });
        if (!stepped) {
          this.pause();
          break;
        }
        const gap = this.rounds.gap(this.speed) - (performance.now() - t0);
        // Always yield a macrotask so commands from the page get in between steps.
        await new Promise((r) => setTimeout(r, Math.max(0, gap)));
      }
    } finally {
      this.looping = false;
    }
  }

  private async stepEntry(e: RunSlot): Promise<void> {
    if (!this.entries.includes(e) || !e.runnable || this.halted) return;
    // Paused (a Step): the page shows which run is on the device ("finishing" while paused) and which wait.
    if (!this.playing) {
      e.touch();
      this.flushSoon();
    }
    const before = e.step;
    const lost = await takeStep(e, this.o, this.progressAfterMs, () => {
      if (this.entries.includes(e)) this.flushSoon();
    });
    if (lost === "lost") {
      this.halt(); // the run stays as it was; "finishing" ends: that step never lands
      const times = this.lostOn?.id === e.spec.id ? this.lostOn.times + 1 : 1;
      this.lostOn = { id: e.spec.id, times, latest: true };
    } else if (e.step > before && this.lostOn?.id === e.spec.id) this.lostOn = null;
    e.touch();
    this.flushSoon();
  }
}
