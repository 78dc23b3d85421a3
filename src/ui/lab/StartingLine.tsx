/**
 * The lab's loading line: what the worker is doing (which file downloads and how far, the kernels' timing, the
 * runs' creation), and, when a download brings nothing for STALL_MS (./starting.ts), that the network may be down, or,
 * when a script or the reward model's runtime (no byte count) takes long, that it is still starting, with Try again
 * (a reload starts the download over; nothing saved in this browser is changed by a start).
 */
import { useEffect, useState } from "react";
import { stageText, stalled, useStarting } from "./starting";

export function StartingLine() {
  const stage = useStarting((s) => s.stage);
  const at = useStarting((s) => s.at);
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const stuck = stalled(stage, at, now);
  const { text, progress } = stageText(stage);
  return (
    <div className="lab-phase" data-testid="lab-loading" data-stage={stage?.stage ?? "worker"}>
      <p role="status">
        <span className="spinner" aria-hidden="true" /> {text}
        <span aria-hidden="true">{progress}</span>…
      </p>
      {stuck && (
        <p role="alert" data-testid="lab-stalled" data-why={stuck}>
          {stuck === "stalled" ? "Nothing has arrived for a while" : "Still starting"}
          {/* The count changes every second: kept out of what screen readers announce (the alert once). */}
          <span aria-hidden="true"> ({Math.round((now - at) / 1000)} s)</span>
          {stuck === "stalled"
            ? ": the network may be slow or down. Waiting does no harm; "
            : ": the download may be slow on this network. Waiting does no harm; "}
          <button type="button" data-testid="lab-stalled-retry" onClick={() => location.reload()}>
            Try again
          </button>{" "}
          starts the download over (nothing saved in this browser is changed).
        </p>
      )}
    </div>
  );
}
