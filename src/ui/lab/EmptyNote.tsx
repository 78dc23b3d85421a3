/** The line an empty chart shows (./MetricChart.tsx). */

import { PRESET_IDS } from "../../lab/presets/ids";
import { labStarted, useLab } from "../lab_store";
import { useApp } from "../store";

/**
 * What an empty plot says (the lab starting, failed, no runs, the first step training…). Its own subscriber:
 * Play and Pause re-render this line, not every chart.
 */
export function EmptyNote({ hasLines, reward }: { hasLines: boolean; reward: boolean }) {
  const ready = useLab((s) => s.phase === "ready");
  const failed = useLab((s) => s.phase === "error");
  const stopped = useLab(labStarted);
  const playing = useLab((s) => s.playing || s.steppingFrom !== null);
  const software = useApp((s) => s.adapter?.isSoftware ?? false);
  const sentiment = useLab((s) => s.spec.task === "sentiment");
  // A newcomer's first screen (no lesson open): the reward chart points to the guided lessons.
  const newcomer = useLab((s) => s.spec.preset === undefined) && reward;
  return (
    <p className="chart-empty">
      {failed
        ? `The lab ${stopped ? "stopped" : "did not start"} (see the message above)`
        : !ready
          ? "Waiting for the lab to start…"
          : hasLines
            ? playing
              ? `Training the first step…${software ? ` (a software GPU: a step can take a minute or more${sentiment ? "; the arithmetic task, under Change…, takes seconds" : ""})` : ""}`
              : `No points yet — press Play (or space).${newcomer ? ` New here? The top bar's “Lessons…” walks through ${PRESET_IDS.length} guided experiments, starting with PPO vs DPO vs GRPO.` : ""}`
            : "No visible runs"}
    </p>
  );
}
