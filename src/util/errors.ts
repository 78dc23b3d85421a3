/**
 * The text of a thrown value: an Error's message (its name when the message is empty, as a DOMException's
 * QuotaExceededError may be), anything else as a string (for notices and logs).
 */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name || "an unknown error";
  return String(e);
}

/** A browser's "storage full" error (QuotaExceededError, by name: a DOMException or a wrapped one). */
export function isQuotaError(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === "QuotaExceededError";
}
