/**
 * Compare a GPU result with its CPU twin element by element: element i passes when
 * |gpu[i] − ref[i]| ≤ atol + rtol·|ref[i]|. Reports the worst element (largest error relative to its bound),
 * so a failing test prints where and by how much. NaN/Inf must match exactly (same class, same sign).
 */

export interface Tolerance {
  /** Absolute tolerance. */
  atol: number;
  /** Relative tolerance (fraction of |ref|). */
  rtol: number;
}

export interface Comparison {
  ok: boolean;
  n: number;
  /** Elements over their bound. */
  failures: number;
  maxAbsError: number;
  /** Index of the element with the largest error / bound ratio (−1 for empty inputs). */
  worstIndex: number;
  worstGpu: number;
  worstRef: number;
  /** Largest |gpu − ref| / (atol + rtol·|ref|); ≤ 1 means every element passed. */
  worstRatio: number;
}

function sameSpecial(a: number, b: number): boolean {
  return (Number.isNaN(a) && Number.isNaN(b)) || a === b;
}

/**
 * Compare `gpu` with `ref` element by element under `tol` (see the file's header): the count of failures, the
 * largest absolute error and the worst element by error / bound. Empty arrays compare ok (worstIndex −1).
 * @throws RangeError when the lengths differ.
 */
export function compareArrays(gpu: ArrayLike<number>, ref: ArrayLike<number>, tol: Tolerance): Comparison {
  if (gpu.length !== ref.length)
    throw new RangeError(`length mismatch: gpu ${gpu.length}, ref ${ref.length}`);
  const c: Comparison = {
    ok: true,
    n: ref.length,
    failures: 0,
    maxAbsError: 0,
    worstIndex: -1,
    worstGpu: Number.NaN,
    worstRef: Number.NaN,
    worstRatio: 0,
  };
  for (let i = 0; i < ref.length; i++) {
    const g = gpu[i];
    const r = ref[i];
    let ratio: number;
    let abs: number;
    if (!Number.isFinite(r) || !Number.isFinite(g)) {
      abs = sameSpecial(g, r) ? 0 : Number.POSITIVE_INFINITY;
      ratio = abs;
    } else {
      abs = Math.abs(g - r);
      ratio = abs === 0 ? 0 : abs / (tol.atol + tol.rtol * Math.abs(r));
    }
    if (abs > c.maxAbsError) c.maxAbsError = abs;
    if (ratio > 1 || Number.isNaN(ratio)) c.failures++;
    if (c.worstIndex < 0 || ratio > c.worstRatio) {
      c.worstRatio = ratio;
      c.worstIndex = i;
      c.worstGpu = g;
      c.worstRef = r;
    }
  }
  c.ok = c.failures === 0;
  return c;
}

/**
 * One line for logs and test messages. `sides` names the two arrays compared (default "gpu" and "ref"; e.g.
 * "twin" and "fd" when a CPU twin's gradient is checked against finite differences).
 */
export function describeComparison(
  label: string,
  c: Comparison,
  tol: Tolerance,
  sides: readonly [string, string] = ["gpu", "ref"],
): string {
  const worst =
    c.worstIndex < 0
      ? "empty"
      : `worst [${c.worstIndex}] ${sides[0]}=${c.worstGpu} ${sides[1]}=${c.worstRef} (|err| ${Math.abs(c.worstGpu - c.worstRef).toExponential(2)}, ${c.worstRatio.toFixed(3)}× bound)`;
  return `${label}: ${c.ok ? "ok" : `FAIL ${c.failures}/${c.n}`} max|err| ${c.maxAbsError.toExponential(2)} ${worst}; atol ${tol.atol} rtol ${tol.rtol}`;
}
