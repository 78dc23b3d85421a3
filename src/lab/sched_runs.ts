/**
 * The scheduler's (./scheduler.ts) list of runs: adding, forking, removing and renaming them, each in its turn
 * between steps, except a removal, which takes the run out at once (it is never stepped again) and frees it in
 * its turn. A run removed while it is still being made (its add or fork waiting for its turn, or its run being
 * built) is left out when the making ends, and freed.
 */
import { errorMessage as message } from "../util/errors";
import type { RunSpec } from "./protocol";
import { FORK_SUFFIX, forkLabel } from "./run_labels";
import { RunSlot } from "./run_slot";
import { SchedulerBase } from "./sched_base";
import type { SchedRun } from "./sched_run";

export class SchedulerRuns extends SchedulerBase {
  /**
   * Runs being made (an add or a fork asked for, its slot not in the list yet: it waits for its turn, or for its
   * run to be built) by id, with whether a removal came meanwhile. A removal cannot take out a slot that is not
   * there yet; the making sees the mark and keeps the run out (see {@link takeOut}).
   */
  private readonly making = new Map<string, { removed: boolean }[]>();

  /** Do `make` (queued: {@link exclusive}) for run `id`; `removed()` tells it whether the run was removed since. */
  private makeRun<T>(id: string, make: (removed: () => boolean) => Promise<T>): Promise<T> {
    const mark = { removed: false };
    // Two makings of one id may be queued (the second then finds the first's run: "already exists").
    const marks = this.making.get(id) ?? [];
    this.making.set(id, [...marks, mark]);
    return this.exclusive(() => make(() => mark.removed)).finally(() => {
      const left = (this.making.get(id) ?? []).filter((m) => m !== mark);
      if (left.length) this.making.set(id, left);
      else this.making.delete(id);
    });
  }

  /**
   * Take run `id` out of the list now (it is never stepped again) and return its slot; a run still being made
   * is marked removed instead (its making then leaves it out).
   */
  private takeOut(id: string): RunSlot | undefined {
    const e = this.find(id);
    if (e) this.entries.splice(this.entries.indexOf(e), 1);
    for (const mark of this.making.get(id) ?? []) mark.removed = true;
    return e;
  }

  /**
   * Add a run (status "ready"). With `tolerant`, a run that cannot be created is kept in "error" with the
   * reason instead of rejecting (the opening experiment shows every run it was given). With `held`, it is not
   * stepped until {@link resumeRun} has loaded its saved state (an imported run: a step from the start model
   * first would land in its restored curve). A run removed before it is made is not added.
   * @throws RangeError on a duplicate id, past MAX_RUNS runs or (without tolerant) an invalid config.
   */
  addRun(spec: RunSpec, tolerant = false, held = false): Promise<void> {
    return this.makeRun(spec.id, async (removed) => {
      if (removed()) return;
      if (this.find(spec.id)) throw new RangeError(`a run "${spec.id}" already exists`);
      this.checkRoom();
      let run: SchedRun | null = null;
      let error: string | null = null;
      try {
        run = await this.o.factory.create(spec);
      } catch (e) {
        if (!tolerant || this.o.isDeviceLoss?.(e)) throw e;
        error = `${spec.label} could not start: ${message(e)}`;
      }
      if (removed()) return this.free(spec.id, run);
      const slot = new RunSlot(spec, run);
      if (error !== null) slot.fail(error, "could-not-start");
      slot.held = held;
      this.entries.push(slot);
      this.flushSoon();
    });
  }

  /** Remove a run now (it is never stepped again, nor added if it is still being made); freed between steps. */
  removeRun(id: string): void {
    const e = this.takeOut(id);
    if (e) void this.exclusive(() => this.free(id, e.run));
  }

  /** Free a run's object and what the factory keeps for its id. */
  protected free(id: string, run: SchedRun | null): void {
    run?.destroy();
    this.o.factory.forget?.(id);
  }

  /**
   * Duplicate a run from its current state under `spec` (inserted right after it; last if it was removed
   * meanwhile, as the page adds it). The page names the fork from the step it has seen; the source may be a few
   * steps further here, so the spec is returned as used: `forkOf` = the source and its step now, and a
   * " (fork @ N)" label with that step. A fork removed before it is made is not added.
   */
  forkRun(sourceId: string, spec: RunSpec): Promise<RunSpec> {
    return this.makeRun(spec.id, async (removed) => {
      const src = this.find(sourceId);
      if (!src) throw new RangeError(`no run "${sourceId}" to fork`);
      if (!src.run) throw new RangeError(`${src.spec.label} has no state to fork (${src.error})`);
      // Its weights are still the start model's until its checkpoint is in.
      if (src.held)
        throw new RangeError(`${src.spec.label} is still loading its checkpoint; fork it once it has`);
      if (this.find(spec.id)) throw new RangeError(`a run "${spec.id}" already exists`);
      this.checkRoom();
      const used: RunSpec = {
        ...spec,
        label: FORK_SUFFIX.test(spec.label) ? forkLabel(spec.label, src.step) : spec.label,
        forkOf: { id: sourceId, step: src.step },
      };
      const run = await this.o.factory.fork(src.run, src.spec, used);
      if (removed()) {
        this.free(spec.id, run);
        return used;
      }
      // Points the page has not seen yet belong to the fork's history too (the page copies the rest).
      const at = this.entries.indexOf(src);
      this.entries.splice(at < 0 ? this.entries.length : at + 1, 0, src.fork(used, run));
      this.flushSoon();
      return used;
    });
  }

  /**
   * Rename a run (its messages name it so from then on), in turn with the other changes: after an add or a
   * settings change queued before it (which would otherwise keep or write back the old spec). An unknown id is
   * ignored.
   */
  renameRun(id: string, label: string): Promise<void> {
    return this.exclusive(async () => {
      const e = this.find(id);
      if (e) e.spec = { ...e.spec, label };
    });
  }
}
