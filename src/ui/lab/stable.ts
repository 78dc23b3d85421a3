/**
 * Keeping a derived array's identity while its contents are unchanged. The charts are memoised on their
 * props' identities, and a worker update rebuilds every chart's line list although most charts' lines did not
 * change (a DPO-only diagnostic when PPO stepped): reusing the previous array skips a recharts redraw, the
 * page's largest main-thread cost.
 */
import { useRef } from "react";

/** True when both arrays hold objects whose own fields are identical (`===`) pairwise. */
export function sameItems<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    if (x === y) continue;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) if (x[k] !== y[k]) return false;
  }
  return true;
}

/** `prev` when it holds the same items as `next` (see {@link sameItems}), else `next`. */
export function keepIfSame<T extends object>(
  prev: readonly T[] | undefined,
  next: readonly T[],
): readonly T[] {
  return prev !== undefined && sameItems(prev, next) ? prev : next;
}

/** The hook form: the array returned last render while `next` holds the same items. */
export function useStableItems<T extends object>(next: readonly T[]): readonly T[] {
  const last = useRef<readonly T[] | undefined>(undefined);
  last.current = keepIfSame(last.current, next);
  return last.current;
}
