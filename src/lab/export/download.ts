/**
 * Page downloads: offer text or bytes as a file (an object URL clicked through a temporary <a download>).
 * Used by the export menu; no effect outside a page.
 */

/** Offer `data` as a download named `filename`. */
export function downloadBlob(data: string | Uint8Array, filename: string, type: string): void {
  const blob = new Blob([data as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later, not at once: a busy browser may start reading the file after this returns.
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}

export const MIME = {
  csv: "text/csv;charset=utf-8",
  json: "application/json",
  python: "text/x-python;charset=utf-8",
  safetensors: "application/octet-stream",
  onnx: "application/octet-stream",
} as const;
