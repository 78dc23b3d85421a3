/**
 * Waiting for a promise at most so long: a stop or a save the page must not wait on forever.
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
