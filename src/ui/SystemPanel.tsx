/**
 * The adapter facts, the kernel self-test and the performance card, folded under the lab (open by itself while there is no lab to
 * show). The summary line says how the self-test stands, so a failure is visible without opening it.
 */
import { PerfCard } from "./PerfCard";
import { SelfTestCard } from "./SelfTestCard";
import { SystemCard } from "./SystemCard";
import { useApp } from "./store";

export function SystemPanel({ defaultOpen }: { defaultOpen: boolean }) {
  const adapter = useApp((s) => s.adapter);
  const selfTest = useApp((s) => s.selfTest);
  const results = useApp((s) => s.results);
  const passed = results.filter((r) => r.ok).length;
  const status =
    selfTest === "done"
      ? passed === results.length
        ? `${passed}/${results.length} kernel checks pass`
        : `${results.length - passed} of ${results.length} kernel checks FAIL`
      : selfTest === "running"
        ? `self-test running (${results.length} done)`
        : selfTest === "failed"
          ? "self-test stopped"
          : "self-test waiting";
  return (
    <details className="system-panel" open={defaultOpen} data-testid="system-panel">
      <summary data-testid="system-summary">
        System · {adapter?.name ?? "no adapter yet"} · {status}
      </summary>
      <div className="grid">
        {/* The two short cards share the narrow column, so the performance card stays in view beside the
            self-test's long table (below it, it sat some 1,700 px down). */}
        <div className="card-column">
          <SystemCard />
          <PerfCard />
        </div>
        <SelfTestCard />
      </div>
    </details>
  );
}
