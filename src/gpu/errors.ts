/**
 * Typed GPU errors. Every failure the runtime can see is turned into one of these, so callers (the lab,
 * the CLI, the tests) can tell a missing WebGPU from a lost device from a bad kernel, and say what to do.
 */

/** Why no GPU could be had. */
export type GpuUnavailableReason =
  /** `navigator.gpu` is undefined: the browser has no WebGPU or it is switched off. */
  | "no-webgpu"
  /**
   * `navigator.gpu` is undefined because the page is not a secure context (`isSecureContext` false: plain http
   * from an address other than localhost), where browsers withhold WebGPU whatever their version.
   */
  | "insecure-context"
  /** `requestAdapter()` resolved to null: WebGPU exists but no adapter is usable (blocklisted GPU, no driver). */
  | "no-adapter"
  /** `requestDevice()` rejected (limits or features the adapter cannot give). */
  | "device-failed";

/** How a user gets WebGPU, shown by the app's no-WebGPU page and printed by the Node tools. */
export const WEBGPU_HELP = {
  browser:
    "Use a recent Chrome or Edge (version 113 or newer) on Windows, macOS or ChromeOS, or Chrome 121+ on Android. " +
    "On Linux, start Chrome with --enable-unsafe-webgpu (and --enable-features=Vulkan), or enable " +
    "chrome://flags/#enable-unsafe-webgpu. Firefox 141+ (Windows) and Safari 26+ also ship WebGPU. " +
    "Check chrome://gpu for 'WebGPU: Hardware accelerated'.",
  node:
    "In Node the adapter comes from the npm package `webgpu` (Dawn). Without a GPU, install a software Vulkan " +
    "driver: `apt-get install -y chromium libvulkan1` and set " +
    "VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json.",
} as const;

/**
 * What to do when the page is not a secure context: browsers give WebGPU (and `crypto.subtle`) only to pages
 * served over https or from localhost. Shown by the app's no-WebGPU page (reason "insecure-context").
 */
export const SECURE_CONTEXT_HELP =
  "The page was opened over plain http from another machine, and browsers only give WebGPU to secure pages: " +
  "open it over https, or on the machine that serves it as http://localhost. To test on a classroom network " +
  "without https, add the page's origin (e.g. http://192.168.1.20:8080) to " +
  "chrome://flags/#unsafely-treat-insecure-origin-as-secure in Chrome and restart it.";

/**
 * The error for a browser with no `navigator.gpu`: reason "insecure-context" when `secureContext` is false
 * (the page's `isSecureContext`), otherwise "no-webgpu" (undefined, as in Node, counts as secure).
 */
export function browserWithoutGpu(secureContext: boolean | undefined): GpuUnavailableError {
  return secureContext === false
    ? new GpuUnavailableError(
        "insecure-context",
        `This page is not a secure context (isSecureContext is false), so the browser does not expose WebGPU. ${SECURE_CONTEXT_HELP}`,
      )
    : new GpuUnavailableError("no-webgpu", `This browser does not expose WebGPU. ${WEBGPU_HELP.browser}`);
}

/** No WebGPU adapter or device could be acquired. */
export class GpuUnavailableError extends Error {
  override readonly name = "GpuUnavailableError";
  constructor(
    readonly reason: GpuUnavailableReason,
    message: string,
  ) {
    super(message);
  }
}

/** The device was lost (driver reset, GPU process crash, `destroy()`); every pending read rejects with this. */
export class GpuDeviceLostError extends Error {
  override readonly name = "GpuDeviceLostError";
  constructor(
    /** `GPUDeviceLostReason`: "destroyed" when we destroyed it ourselves, otherwise "unknown". */
    readonly reason: string,
    message: string,
  ) {
    super(`GPU device lost (${reason}): ${message}`);
  }
}

/** A WebGPU validation, out-of-memory or internal error; `label` names the pipeline or buffer involved. */
export class GpuValidationError extends Error {
  override readonly name = "GpuValidationError";
  constructor(
    readonly kind: "validation" | "out-of-memory" | "internal",
    message: string,
    readonly label?: string,
  ) {
    super(label ? `[${label}] ${message}` : message);
  }
}

/** A WGSL kernel failed to compile; the message carries the kernel's name and the compiler's line:col. */
export class ShaderCompileError extends Error {
  override readonly name = "ShaderCompileError";
  constructor(
    readonly kernel: string,
    message: string,
  ) {
    super(`kernel "${kernel}" failed to compile:\n${message}`);
  }
}

/** The largest buffer this device can bind to a kernel: the lesser of its binding and buffer size limits (bytes). */
export function maxBindableBytes(device: GPUDevice): number {
  return Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
}

/** A buffer larger than the device can bind (its maxStorageBufferBindingSize / maxBufferSize). */
export class GpuLimitError extends RangeError {
  override readonly name = "GpuLimitError";
  constructor(
    readonly label: string,
    readonly bytes: number,
    readonly limit: number,
    /** The message, when the caller can say more (what to change). */
    text = `the buffer "${label}" needs ${mib(bytes)}; this GPU allows ${mib(limit)} per buffer (the smaller of maxStorageBufferBindingSize and maxBufferSize)`,
  ) {
    super(text);
  }
}

/** Bytes as MiB with one decimal ("256.0 MiB"). */
export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
