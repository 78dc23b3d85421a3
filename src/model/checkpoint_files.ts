/**
 * Checkpoint files in Node (fs), around the environment-free `saveCheckpoint` / `loadCheckpoint` bytes (the
 * page hands bytes to the worker instead).
 */
import { type Checkpoint, loadCheckpoint, saveCheckpoint } from "./checkpoint";

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
