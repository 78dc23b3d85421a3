/**
 * The confirmations' view of the kept list (./keep_room.ts): what keeping the open experiment would forget when
 * the page leaves for a target experiment, from this browser's kept experiments as read while `enabled`.
 */
import { useEffect, useState } from "react";
import type { ArchiveEntry } from "../../lab/archive";
import type { ExperimentSpec } from "../../lab/protocol";
import { useLab } from "../lab_store";
import { hereOf, pipelineKept, type Room, roomFor } from "./keep_room";
import { usePipelineStore } from "./pipeline_store";
import { onRecentChange, recentExperiments } from "./saving";

export { pipelineKept } from "./keep_room";

/** This browser's kept experiments (Recent experiments), read while `enabled` and again when they change; null before. */
export function useKeptList(enabled: boolean): ArchiveEntry[] | null {
  const [listed, setListed] = useState<ArchiveEntry[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const read = () =>
      recentExperiments().then(
        (list) => live && setListed(list),
        () => live && setListed(null),
      );
    read();
    const stop = onRecentChange(read);
    return () => {
      live = false;
      stop();
    };
  }, [enabled]);
  return enabled ? listed : null;
}

/**
 * {@link roomFor} the lab's experiment now, leaving for `target` (null: unknown); the function answers null while
 * the list is not read (or cannot be), or not `enabled`.
 */
export function useRoom(enabled: boolean): (target: ExperimentSpec | null) => Room | null {
  const listed = useKeptList(enabled);
  const spec = useLab((s) => s.spec);
  // Re-rendered by what the ranking reads (each run's step), and only while enabled: not by samples or statuses.
  useLab((s) =>
    enabled
      ? Object.entries(s.runs)
          .map(([id, r]) => `${id}:${r.step}:${r.comparison ? 1 : 0}`)
          .join()
      : "",
  );
  const pipeline = usePipelineStore(pipelineKept);
  return (target) =>
    enabled && listed ? roomFor(listed, hereOf(spec, useLab.getState().runs, pipeline), target) : null;
}
