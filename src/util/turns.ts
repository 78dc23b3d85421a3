/**
 * Work done one piece at a time in the order it was asked for: each piece starts once every piece asked for
 * before it has settled (resolved or rejected), whatever its own speed. What the scheduler's commands and steps
 * use (they must never overlap) and the worker's settings changes (a reward model still loading must not let a
 * later change in first).
 */
export class Turns {
  private last: Promise<unknown> = Promise.resolve();

  /** Run `fn` after everything asked for before it; resolves or rejects as `fn` does. */
  take<T>(fn: () => Promise<T> | T): Promise<T> {
    const r = this.last.then(fn);
    this.last = r.catch(() => {});
    return r;
  }
}
