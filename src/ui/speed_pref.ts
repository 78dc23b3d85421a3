/**
 * The speed cap is this browser's preference, not the experiment's (links leave it out): localStorage keeps it
 * across reloads. Without storage (Node, a blocked origin) it starts at 0 (as fast as the runs go).
 */
const SPEED_KEY = "rlhf-playground.speed";

/** The speed cap kept in this browser (steps a second), or 0 (as fast as the runs go). */
export function savedSpeed(): number {
  try {
    const v = Number(globalThis.localStorage?.getItem(SPEED_KEY) ?? 0);
    return Number.isFinite(v) && v > 0 ? v : 0;
  } catch {
    return 0;
  }
}

/** Keep `speed` (steps a second; 0: no cap) for the next page; without storage, nothing. */
export function keepSpeed(speed: number): void {
  try {
    globalThis.localStorage?.setItem(SPEED_KEY, String(speed));
  } catch {
    // No storage: the cap lasts until a reload.
  }
}
