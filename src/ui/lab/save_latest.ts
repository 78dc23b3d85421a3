/** Saving the open lab's latest state before the page leaves its experiment (./saving.ts, ./keep_open.ts). */
import { landsWithin } from "../../util/settle";
import type { Saving } from "./saving";

/** Save what changed and a checkpoint of every run that stepped since its last one; gives up after `waitMs`. */
export async function saveLatest(saving: Saving, waitMs: number): Promise<void> {
  saving.pause();
  const done = (async () => {
    await saving.autosaver.flush();
    await saving.autosaver.checkpoint();
    await saving.flushPipeline(); // a stage that just finished: keep its models, not the ones before
  })();
  await landsWithin(
    done.catch(() => {}),
    waitMs,
  );
}
