/**
 * Typed GPU errors. Every failure the runtime can see is turned into one of these, so callers (the lab,
 * the CLI, the tests) can tell a missing WebGPU from a lost device from a bad kernel, and say what to do.
 */

/** Why no GPU could be had. */
export type GpuUnavailableReason =
  /** `navigator.gpu` is undefined: the browser has no WebGPU or it is switched off. */
  | "no-webgpu"
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
