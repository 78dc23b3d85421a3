/**
 * Errors that depend on the browser, not on this page's state: a reload gives the same answer, so the page does
 * not offer "Try again" for them (LabView). Marked where they are thrown (the worker's start); the mark is the
 * error's name, which survives the trip from the worker (Comlink copies name and message).
 */
import { GpuUnavailableError } from "../gpu/errors";
import { errorMessage as message } from "../util/errors";

export const BROWSER_ERROR = "BrowserSupportError";

/** This browser cannot run the lab as it is (no WebGPU in Web Workers, say): another browser can. */
export class BrowserSupportError extends Error {
  override readonly name = BROWSER_ERROR;
}

/** Whether reloading the page may help with `e` (false for an error of the browser's). */
export const reloadMayHelp = (e: unknown): boolean =>
  !(typeof e === "object" && e !== null && (e as { name?: unknown }).name === BROWSER_ERROR);

/**
 * The worker's failure to get a GPU device, said as such; marked as the browser's when it has no WebGPU (none at
 * all, or none for an insecure page).
 */
export function workerGpuError(e: unknown): Error {
  const text = `The training worker could not get a GPU device: ${message(e)}`;
  return e instanceof GpuUnavailableError && (e.reason === "no-webgpu" || e.reason === "insecure-context")
    ? new BrowserSupportError(text)
    : new Error(text);
}
