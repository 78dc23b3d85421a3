/**
 * Waiting for a promise at most so long: a stop or a save the page must not wait on forever, a GPU that never
 * answers.
 */

/**
 * Whether `p` resolves within `ms` milliseconds (Infinity: waits for it): true as soon as it does, false once
 * `ms` have passed (`p` goes on either way). Rejects with p's error if p rejects first.
 */
export async function landsWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => {
    if (Number.isFinite(ms)) timer = setTimeout(() => r(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `p`, or a rejection "`what` within N s" after `ms` (a hung request must not look like a slow page). */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
