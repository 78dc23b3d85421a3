/**
 * The warning line of the GPU self-test (./SelfTestWarning.tsx shows it): which kernels failed, or null.
 */
import type { SelfTestResult } from "../kernels/selftest";

/**
 * "3 of 27 kernel checks disagree with their CPU twins on this adapter (matmul (A·B) · tiled, …)", or null when
 * none does. Kernels named once each, at most 4.
 */
export function selfTestWarning(results: readonly Pick<SelfTestResult, "kernel" | "ok">[]): string | null {
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) return null;
  const kernels = [...new Set(failed.map((r) => r.kernel))];
  const named =
    kernels.slice(0, 4).join(", ") + (kernels.length > 4 ? `, and ${kernels.length - 4} more` : "");
  return `${failed.length} of ${results.length} kernel checks disagree with their CPU twins on this adapter (${named})`;
}
