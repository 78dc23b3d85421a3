import type { GpuUnavailableReason } from "../gpu/errors";
import type { Unavailable } from "./store";

/** What each failure means, in words for someone who has never heard of WebGPU adapters. */
const EXPLAIN: Record<GpuUnavailableReason, string> = {
  "no-webgpu":
    "This browser does not expose WebGPU at all (navigator.gpu is missing). Either it is too old, it does not support WebGPU yet, or WebGPU is switched off.",
  "no-adapter":
    "WebGPU is there, but the browser would not give the page a GPU adapter. This usually means the GPU or its driver is on the browser's blocklist, or WebGPU is disabled by a policy or flag.",
  "device-failed":
    "The browser found a GPU adapter but could not create a device on it (its GPU process failed, the driver refused, or the GPU is out of memory): the technical details below say which. Closing other GPU-heavy tabs or restarting the browser often helps.",
};

/** The page shown instead of the lab when no WebGPU device can be had. */
export function NoWebGpu({ unavailable }: { unavailable: Unavailable }) {
  const { reason, message } = unavailable;
  return (
    <section className="card card-error no-webgpu" data-testid="no-webgpu" data-reason={reason}>
      <h2>This lab needs WebGPU</h2>
      <p>
        Every model here trains on your GPU through WebGPU, with the lab's own compute kernels. Without it,
        nothing can run, so there is no slow fallback.
      </p>

      <h3>What happened</h3>
      <p>
        Reason:{" "}
        <code className="reason" data-testid="no-webgpu-reason">
          {reason}
        </code>
      </p>
      <p>{EXPLAIN[reason]}</p>

      <h3>How to get WebGPU</h3>
      <ul className="steps">
        <li>
          <strong>Chrome or Edge 113 or newer</strong> on Windows, macOS or ChromeOS has WebGPU on by default.
          Chrome 121+ on Android too.
        </li>
        <li>
          <strong>Linux:</strong> open <code>chrome://flags/#enable-unsafe-webgpu</code>, set it to Enabled
          and restart; or start Chrome with <code>--enable-unsafe-webgpu --enable-features=Vulkan</code>.
        </li>
        <li>
          <strong>Check:</strong> open <code>chrome://gpu</code> and look for "WebGPU: Hardware accelerated".
          If it says disabled or software only, update your GPU driver.
        </li>
        <li>
          <strong>Firefox 141+</strong> (Windows) and <strong>Safari 26+</strong> also ship WebGPU; other
          versions may need it enabled in their settings.
        </li>
      </ul>
      <details className="details">
        <summary>Technical details</summary>
        <pre className="mono" data-testid="no-webgpu-message">
          {message}
        </pre>
      </details>
      <button type="button" onClick={() => location.reload()}>
        Try again
      </button>
    </section>
  );
}
