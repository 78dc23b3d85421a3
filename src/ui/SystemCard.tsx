import { bytes, int } from "./format";
import { useApp } from "./store";

/** Limits worth knowing when sizing models: [key, label, formatter]. */
const LIMITS: [string, string, (x: number) => string][] = [
  ["maxBufferSize", "Largest buffer", bytes],
  ["maxStorageBufferBindingSize", "Largest storage binding", bytes],
  ["maxComputeWorkgroupStorageSize", "Workgroup memory", bytes],
  ["maxComputeInvocationsPerWorkgroup", "Threads per workgroup", int],
];

/** What adapter the page got, and what it can do. */
export function SystemCard() {
  const adapter = useApp((s) => s.adapter);
  const gpu = useApp((s) => s.gpu);
  const hasTimestamps = useApp((s) => s.hasTimestamps);
  return (
    <section className="card" aria-labelledby="system-title">
      <h2 id="system-title">System</h2>
      {!adapter ? (
        <p className="muted" data-testid="adapter-pending">
          {gpu === "acquiring" ? "Requesting a WebGPU adapter…" : "No adapter."}
        </p>
      ) : (
        <>
          <p className="adapter-name" data-testid="adapter-name">
            {adapter.name}
          </p>
          {adapter.isSoftware && (
            <p className="badge badge-warn" data-testid="software-badge">
              software adapter: ~1 GFLOP/s or less
            </p>
          )}
          {adapter.isSoftware && (
            <p className="muted" data-testid="software-advice">
              The GPU's work runs on the CPU here, so training is slow. In Chrome or Edge, chrome://gpu should
              say “WebGPU: Hardware accelerated”; if not, updating the GPU driver or the browser often helps
              (on Linux: --enable-unsafe-webgpu --enable-features=Vulkan; a school-managed machine may not
              allow it).
            </p>
          )}
          <dl className="facts">
            <dt>Device</dt>
            <dd data-testid="device-status" className={gpu === "lost" ? "text-fail" : "text-ok"}>
              {gpu === "lost" ? "lost" : "ready"}
            </dd>
            <dt>Vendor</dt>
            <dd data-testid="adapter-vendor">{adapter.vendor || "—"}</dd>
            <dt>Architecture</dt>
            <dd data-testid="adapter-architecture">{adapter.architecture || "—"}</dd>
            <dt>Host</dt>
            <dd data-testid="adapter-host">{adapter.host === "browser" ? "browser" : "Node (Dawn)"}</dd>
            <dt>Timestamp queries</dt>
            <dd data-testid="adapter-timestamps">{hasTimestamps ? "yes" : "no (wall-clock timing)"}</dd>
            {LIMITS.map(([key, label, fmt]) => (
              <Limit key={key} label={label} value={adapter.limits[key]} fmt={fmt} />
            ))}
            <dt>Features</dt>
            <dd title={adapter.features.join("\n")}>{adapter.features.length}</dd>
          </dl>
        </>
      )}
    </section>
  );
}

function Limit({
  label,
  value,
  fmt,
}: {
  label: string;
  value: number | undefined;
  fmt: (x: number) => string;
}) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value === undefined || Number.isNaN(value) ? "—" : fmt(value)}</dd>
    </>
  );
}
