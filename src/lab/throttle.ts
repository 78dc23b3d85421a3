/**
 * Backpressure for the worker's updates: `send` runs at most once every `ms`, and never while the page has
 * not yet acknowledged the previous send (send returns the acknowledgement as a promise). A page that renders
 * slowly thus gets fewer, larger updates instead of a growing queue of messages.
 */
export class AckThrottle {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = -Infinity;
  private awaiting = false;
  /** Numbers the sends, so only the latest acknowledgement counts. */
  private sent = 0;

  constructor(
    readonly ms: number,
    /** Sends what is pending; returns a promise to wait for, or anything else to not wait. */
    private readonly send: () => unknown,
    /** Whether something is waiting to be sent (asked when an acknowledgement arrives). */
    private readonly pending: () => boolean,
  ) {}

  /** Send as soon as allowed (no-op while a send is scheduled or unacknowledged). */
  request(): void {
    if (this.timer !== null || this.awaiting) return;
    const wait = Math.max(0, this.last + this.ms - performance.now());
    this.timer = setTimeout(() => this.now(), wait);
  }

  /** Send now, acknowledged or not. */
  now(): void {
    this.cancel();
    this.awaiting = false;
    this.last = performance.now();
    const ack = this.send();
    if (!(ack instanceof Promise)) return;
    this.awaiting = true;
    const n = ++this.sent;
    const done = () => {
      if (n !== this.sent) return;
      this.awaiting = false;
      if (this.pending()) this.request();
    };
    ack.then(done, done);
  }

  /** Drop a scheduled send. */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
