/**
 * The scheduler's rounds (src/lab/scheduler.ts): which run steps next, and how far apart its steps go under
 * the speed cap. Each run that can step at a round's start takes one turn, in the experiment's order, and a
 * run behind (fewer steps than the run furthest on) takes two turns in a row, so it catches up by a step a
 * round while the others go on. A run added mid-round joins the next one; a run removed, in error or at the
 * step limit loses its turns.
 */
export class Rounds<R extends { readonly step: number }> {
  /** This round's turns still to take. */
  private turns: { run: R; second: boolean }[] = [];
  /** The round's turns and the most turns one run takes in it (for the speed cap). */
  private shape = { turns: 1, most: 1 };

  /** Drop the round's turns (the runs were rebuilt): the next call plans a new round. */
  clear(): void {
    this.turns = [];
  }

  /**
   * The next run to step, or null when none can. `can()`: the runs that can step now, in order; a run's turn
   * counts only while it is still among them.
   */
  next(can: () => readonly R[]): R | null {
    for (let fresh = 0; fresh < 2; fresh++) {
      const now = can();
      const lead = Math.max(...now.map((x) => x.step));
      for (let turn = this.turns.shift(); turn; turn = this.turns.shift()) {
        const { run, second } = turn;
        // A second turn only while still behind (a step in flight when the round was planned may have landed).
        if (now.includes(run) && (!second || run.step < lead)) return run;
      }
      this.turns = now.flatMap((run) =>
        run.step < lead
          ? [
              { run, second: false },
              { run, second: true },
            ]
          : [{ run, second: false }],
      );
      this.shape = { turns: Math.max(1, this.turns.length), most: this.turns.length > now.length ? 2 : 1 };
    }
    return null;
  }

  /**
   * Milliseconds from one step's start to the next at `speed` steps per second per run (0: no cap): over a
   * round no run steps more than `speed` times a second (a run's two turns in a row come closer together; a
   * skipped turn shortens a round).
   */
  gap(speed: number): number {
    return speed > 0 ? (1000 * this.shape.most) / (speed * this.shape.turns) : 0;
  }
}
