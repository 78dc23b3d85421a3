/**
 * The GPU checks of a page start (the kernel self-test and the matmul throughput), kept in this browser once they
 * all passed, so that the next load on the same build, browser and adapter shows them instead of running them
 * again: on a software adapter they cost seconds of CPU at every load, competing with the lab's own start.
 * A failure is never kept (it runs again, and warns again, at every load); the System panel's **Run again**
 * runs them afresh at any time. Storage errors (blocked, full, a damaged entry) only mean running them again.
 */
import type { AdapterReport } from "../gpu/device";
import type { SelfTestResult } from "../kernels/selftest";
import type { MatmulThroughput } from "../kernels/throughput";

const STORAGE_KEY = "rlhf-playground.gpu-checks";
/** Kept results older than this run again (a driver update need not change the browser's version). */
export const KEPT_FOR_MS = 7 * 24 * 3600 * 1000;

export interface KeptChecks {
  /** When they ran, ms since the epoch. */
  at: number;
  results: SelfTestResult[];
  perf: MatmulThroughput;
}

/**
 * What the kept checks must match: the build (its main bundle's URL, which carries the hash of the code under
 * test), the browser (its user agent: version, OS) and the adapter. Null in development (the code changes under
 * the same URL): nothing is kept then.
 */
export function checksKey(
  build: string | null,
  userAgent: string,
  adapter: AdapterReport,
  hasTimestamps: boolean,
): string | null {
  if (build === null) return null;
  const { vendor, architecture, device, description, features } = adapter;
  return JSON.stringify([
    build,
    userAgent,
    vendor,
    architecture,
    device,
    description,
    features,
    hasTimestamps,
  ]);
}

/** The kept checks for `key`, or null (none, another key, older than {@link KEPT_FOR_MS}, unreadable). */
export function keptChecks(storage: Storage | undefined, key: string | null, now: number): KeptChecks | null {
  if (key === null || !storage) return null;
  try {
    const v = JSON.parse(storage.getItem(STORAGE_KEY) ?? "null") as unknown;
    if (!v || typeof v !== "object") return null;
    const { key: k, at, results, perf } = v as Record<string, unknown>;
    if (k !== key || typeof at !== "number" || !(now - at < KEPT_FOR_MS) || at > now + 60_000) return null;
    if (!Array.isArray(results) || results.length === 0 || !results.every(passedResult)) return null;
    if (!throughput(perf)) return null;
    return { at, results, perf };
  } catch {
    return null;
  }
}

/** Keep the checks for `key` when every self-test case passed; otherwise forget any kept ones. Never throws. */
export function keepChecks(storage: Storage | undefined, key: string | null, checks: KeptChecks): void {
  if (key === null || !storage) return;
  try {
    if (checks.results.length > 0 && checks.results.every((r) => r.ok))
      storage.setItem(STORAGE_KEY, JSON.stringify({ key, ...checks }));
    else storage.removeItem(STORAGE_KEY);
  } catch {
    // not kept: they run again at the next load
  }
}

/** Forget the kept checks (a failed run, or a run that did not finish). Never throws. */
export function forgetChecks(storage: Storage | undefined): void {
  try {
    storage?.removeItem(STORAGE_KEY);
  } catch {
    // nothing to forget
  }
}

const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

function passedResult(r: unknown): r is SelfTestResult {
  if (!r || typeof r !== "object") return false;
  const { kernel, shape, n, maxAbsError, worstIndex, tolerance, ok, gpuMs } = r as Record<string, unknown>;
  const tol = tolerance as Record<string, unknown> | null;
  return (
    ok === true &&
    typeof kernel === "string" &&
    typeof shape === "string" &&
    finite(n) &&
    finite(maxAbsError) &&
    finite(worstIndex) &&
    finite(gpuMs) &&
    !!tol &&
    typeof tol === "object" &&
    finite(tol.atol) &&
    finite(tol.rtol)
  );
}

function throughput(p: unknown): p is MatmulThroughput {
  if (!p || typeof p !== "object") return false;
  const { gflops, n, reps, ms, samples, source, variant } = p as Record<string, unknown>;
  return (
    finite(gflops) &&
    gflops > 0 &&
    finite(n) &&
    finite(reps) &&
    finite(ms) &&
    finite(samples) &&
    typeof source === "string" &&
    typeof variant === "string"
  );
}
