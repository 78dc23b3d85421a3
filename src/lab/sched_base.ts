/**
 * What the scheduler's (./scheduler.ts) commands and step loop share: its run slots in order, looked up by id;
 * the queue that runs each command or step after everything queued before it, so that they never overlap
 * (`exclusive`); and the batched RunUpdates for the page, sent at most every `flushMs` (default 250 ms) and
 * only once the page acknowledged the last (./throttle.ts). Also what the scheduler tells about its runs (ids,
 * steps, specs, a live run object between steps) and freeing them all.
 */

import { Turns } from "../util/turns";
import type { RunSpec, RunUpdate } from "./protocol";
import type { RunSlot } from "./run_slot";
import type { SchedRun, SchedulerOptions } from "./sched_run";
import { MAX_RUNS, TOO_MANY_RUNS } from "./settings";
import { AckThrottle } from "./throttle";

export class SchedulerBase {
  protected entries: RunSlot[] = [];
  protected playing = false;
  /** Set while the device is lost: no steps until the scheduler's recover(); the runs read "recovering". */
  protected halted = false;
  private readonly queue = new Turns();
  /** Sends the batched updates: at most every flushMs, and only once the page acknowledged the last one. */
  private readonly out: AckThrottle;

  constructor(protected readonly o: SchedulerOptions) {
    this.out = new AckThrottle(
      o.flushMs ?? 250,
      () => this.send(),
      () => this.entries.some((e) => e.dirty),
    );
  }

  get isPlaying(): boolean {
    return this.playing;
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

  /** Send what is pending now, acknowledged or not (tests; shutdown). */
  flush(): void {
    this.out.now();
  }

  /** The pending updates, sent with onUpdate; returns its acknowledgement (null when nothing was pending). */
  private send(): unknown {
    const updates: RunUpdate[] = [];
    for (const e of this.entries) {
      const u = e.take(this.playing, this.halted);
      if (u) updates.push(u);
    }
    return updates.length ? this.o.onUpdate(updates) : null;
  }

  /** Free every run. */
  dispose(): void {
    this.playing = false;
    this.out.cancel();
    for (const e of this.entries) e.run?.destroy();
    this.entries = [];
  }

  /** @throws RangeError when the lab already holds MAX_RUNS runs (a link keeps no more: spec_check.ts). */
  protected checkRoom(): void {
    if (this.entries.length >= MAX_RUNS) throw new RangeError(TOO_MANY_RUNS);
  }

  protected find(id: string): RunSlot | undefined {
    return this.entries.find((e) => e.spec.id === id);
  }

  /** Run `fn` after everything queued before it: steps and commands never overlap. */
  protected exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    return this.queue.take(fn);
  }

  protected touchAll(): void {
    for (const e of this.entries) e.touch();
    this.flushSoon();
  }

  /** Send the pending updates as soon as the throttle allows. */
  protected flushSoon(): void {
    this.out.request();
  }
}
