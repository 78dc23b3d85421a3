/**
 * What the Performance card says when the matmul timing failed (boot.ts runChecks): the error's text, except when
 * the checks' own GPU device was lost meanwhile (its raw "GPU device lost (destroyed): …" says nothing to act on).
 */
import { GpuDeviceLostError } from "../gpu/errors";
import { errorMessage as message } from "../util/errors";

/** Why the throughput was not measured, from what the timing threw and whether the page's device is lost now. */
export function perfFailure(e: unknown, deviceLost: boolean): string {
  if (deviceLost || e instanceof GpuDeviceLostError)
    return "the checks' GPU device was lost; Run again measures it on a new one.";
  return message(e);
}
