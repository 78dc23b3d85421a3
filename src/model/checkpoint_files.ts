/**
 * Checkpoint files: download/upload in the page (Blob, File) and read/write in Node (fs), around the
 * environment-free `saveCheckpoint` / `loadCheckpoint` bytes.
 */
import { type Checkpoint, loadCheckpoint, saveCheckpoint } from "./checkpoint";

/** Page: offer the checkpoint as a `.safetensors` download. */
export function downloadCheckpoint(ck: Checkpoint, filename = "model.safetensors"): void {
  const bytes = saveCheckpoint(ck);
  const url = URL.createObjectURL(
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/octet-stream" }),
  );
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Page: read an uploaded `.safetensors` file (from an <input type="file"> or a drop).
 * @throws SafetensorsError naming what is wrong with the file.
 */
export async function readCheckpointFile(file: Blob): Promise<Checkpoint> {
  return loadCheckpoint(new Uint8Array(await file.arrayBuffer()));
}

/** Node: write a checkpoint file (directories are created). */
export async function writeCheckpointPath(path: string, ck: Checkpoint): Promise<void> {
  const fs = await import(/* @vite-ignore */ "node:fs/promises");
  const p = await import(/* @vite-ignore */ "node:path");
  await fs.mkdir(p.dirname(path), { recursive: true });
  await fs.writeFile(path, saveCheckpoint(ck));
}

/** Node: read a checkpoint file. @throws SafetensorsError (bad file) or the fs error (missing file). */
export async function readCheckpointPath(path: string): Promise<Checkpoint> {
  const fs = await import(/* @vite-ignore */ "node:fs/promises");
  return loadCheckpoint(new Uint8Array(await fs.readFile(path)));
}
