import type { GpuUnavailableReason } from "../gpu/errors";
import type { Unavailable } from "./store";

/** What each failure means, in words for someone who has never heard of WebGPU adapters. */
const EXPLAIN: Record<GpuUnavailableReason, string> = {
  "no-webgpu":
    "This browser does not expose WebGPU at all (navigator.gpu is missing). Either it is too old, it does not support WebGPU yet, or WebGPU is switched off.",
  "insecure-context":
    "The page was opened over plain http from another machine (not https, not localhost). Browsers only give WebGPU to secure pages, so navigator.gpu is missing here however new the browser is: updating it or changing GPU settings will not help.",
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

      {reason === "insecure-context" ? <SecureSteps /> : <WebGpuSteps />}
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

/** How to open the page as a secure context (reason "insecure-context"). */
function SecureSteps() {
  return (
    <>
      <h3>How to open it securely</h3>
      <ul className="steps" data-testid="secure-steps">
        <li>
          <strong>Open it over https</strong> (ask whoever hosts the lab for its https address), or on the
          machine that serves it as <code>http://localhost</code>.
        </li>
        <li>
          <strong>Testing on a classroom network without https:</strong> in Chrome or Edge open{" "}
          <code>chrome://flags/#unsafely-treat-insecure-origin-as-secure</code>, add this page's origin{" "}
          <code>{globalThis.location?.origin ?? "(its scheme, host and port)"}</code> to its list, set it to
          Enabled and restart the browser. Do this on each machine; serving the lab over https is the lasting
          fix.
        </li>
      </ul>
    </>
  );
}

/** How to get a browser with WebGPU (every other reason). */
function WebGpuSteps() {
  return (
    <>
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
    </>
  );
}
