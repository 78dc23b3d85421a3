/**
 * Acquire a WebGPU adapter and device, in the page (navigator.gpu) and in Node (npm `webgpu`, Dawn), behind
 * one function: {@link acquireGpu}. Knows nothing of models or algorithms.
 */
import { GpuContext } from "./context";
import { browserWithoutGpu, GpuUnavailableError, WEBGPU_HELP } from "./errors";
import { throttleDawnPolling } from "./node_poll";

/** What the adapter is and can do; shown by the app and printed by the benchmarks. */
export interface AdapterReport {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** Human-readable one-liner, e.g. "google swiftshader (Vulkan)". */
  name: string;
  /** True for a CPU adapter (SwiftShader, llvmpipe, WARP, or `isFallbackAdapter`): expect ~1 GFLOP/s. */
  isSoftware: boolean;
  /** Adapter features, sorted. */
  features: string[];
  /** The device limits we requested (the adapter's maxima for the ones we raise). */
  limits: Record<string, number>;
  /** "browser" (navigator.gpu) or "node" (Dawn through npm `webgpu`). */
  host: "browser" | "node";
}

export interface AcquireOptions {
  /** A GPU object to use instead of navigator.gpu / Dawn (tests inject fakes). */
  gpu?: GPU;
  /** Default "high-performance". */
  powerPreference?: GPUPowerPreference;
  /** Request `timestamp-query` when the adapter has it (default true). */
  timestamps?: boolean;
}

/** Limits raised from the WebGPU defaults to the adapter's maxima: large workloads need big buffers, many bindings. */
const RAISED_LIMITS = [
  "maxStorageBufferBindingSize",
  "maxBufferSize",
  "maxStorageBuffersPerShaderStage",
  "maxComputeWorkgroupStorageSize",
  "maxComputeInvocationsPerWorkgroup",
  "maxComputeWorkgroupSizeX",
  "maxComputeWorkgroupSizeY",
] as const;

/** Limits reported alongside the raised ones. */
const REPORTED_LIMITS = [
  ...RAISED_LIMITS,
  "maxComputeWorkgroupsPerDimension",
  "minStorageBufferOffsetAlignment",
  "minUniformBufferOffsetAlignment",
] as const;

const SOFTWARE_ADAPTER = /swiftshader|llvmpipe|lavapipe|softpipe|software|basic render|warp/i;

function isNode(): boolean {
  return typeof process !== "undefined" && !!process.versions?.node && typeof window === "undefined";
}

/** In Node: Dawn via npm `webgpu`; also installs WebGPU's globals (GPUBufferUsage, GPUMapMode, ...). */
async function nodeGpu(): Promise<GPU> {
  const specifier = "webgpu"; // a variable, so that bundlers leave this Node-only import alone
  await ensureRuntimeDir();
  const mod = (await import(/* @vite-ignore */ specifier)) as { create(o: string[]): GPU; globals: object };
  Object.assign(globalThis, mod.globals);
  throttleDawnPolling();
  const gpu = mod.create([]);
  // Dawn's instance must outlive every device made from it: if the GPU object were garbage-collected, the
  // instance would be torn down under a live device and the process would crash at random. Keep them all.
  nodeInstances.push(gpu);
  return gpu;
}

/**
 * On a headless machine XDG_RUNTIME_DIR is unset, and Dawn's Vulkan stack prints "error: XDG_RUNTIME_DIR is
 * invalid or not set" twice at start-up (harmless, but it reads like a failure). Point it at a private directory
 * (mode 700, one per user, reused) when it is unset; a value the user set is left alone.
 */
async function ensureRuntimeDir(): Promise<void> {
  if (process.env.XDG_RUNTIME_DIR) return;
  const fs = await import(/* @vite-ignore */ "node:fs");
  const os = await import(/* @vite-ignore */ "node:os");
  const path = await import(/* @vite-ignore */ "node:path");
  const dir = path.join(os.tmpdir(), `rlhf-playground-runtime-${os.userInfo().uid}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = dir;
  } catch {
    // Only a cosmetic message is at stake: carry on without it.
  }
}

/** Every Dawn instance created in this process, kept alive on purpose (see nodeGpu). */
const nodeInstances: GPU[] = [];

/** Chromium's SwiftShader Vulkan driver (Debian package `chromium`), the software adapter used without a GPU. */
export const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

/** Node without a Vulkan driver: point the Vulkan loader at SwiftShader if it is installed. */
async function pointVulkanAtSwiftshader(): Promise<boolean> {
  if (process.env.VK_ICD_FILENAMES) return false;
  const fs = await import(/* @vite-ignore */ "node:fs");
  if (!fs.existsSync(SWIFTSHADER_ICD)) return false;
  process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  return true;
}

/** An adapter as Chrome 113–126 made it: no `info` attribute, `requestAdapterInfo()` and `isFallbackAdapter` instead. */
type OlderAdapter = GPUAdapter & {
  requestAdapterInfo?: () => Promise<GPUAdapterInfo>;
  isFallbackAdapter?: boolean;
};

/**
 * The adapter's vendor, architecture, device and description: `adapter.info` (Chrome 127+), else the older
 * `requestAdapterInfo()` (Chrome 113–126), else none (the report then names an "unknown adapter").
 */
async function adapterInfo(adapter: OlderAdapter): Promise<GPUAdapterInfo | undefined> {
  if (adapter.info) return adapter.info;
  return adapter.requestAdapterInfo?.().catch(() => undefined);
}

function report(
  adapter: OlderAdapter,
  info: GPUAdapterInfo | undefined,
  device: GPUDevice,
  host: "browser" | "node",
): AdapterReport {
  const vendor = info?.vendor ?? "";
  const architecture = info?.architecture ?? "";
  const dev = info?.device ?? "";
  const description = info?.description ?? "";
  const fallback =
    (info as (GPUAdapterInfo & { isFallbackAdapter?: boolean }) | undefined)?.isFallbackAdapter === true ||
    adapter.isFallbackAdapter === true;
  const all = `${vendor} ${architecture} ${dev} ${description}`;
  const limits: Record<string, number> = {};
  for (const k of REPORTED_LIMITS) limits[k] = Number(device.limits[k]);
  const name = [vendor, architecture, description || dev].filter((s) => s).join(" ") || "unknown adapter";
  return {
    vendor,
    architecture,
    device: dev,
    description,
    name,
    isSoftware: fallback || SOFTWARE_ADAPTER.test(all),
    features: [...adapter.features].map(String).sort(),
    limits,
    host,
  };
}

/**
 * Acquire an adapter and a device and wrap them in a {@link GpuContext}.
 *
 * @throws {GpuUnavailableError} reason "insecure-context" when there is no navigator.gpu because the page is not a
 *   secure context (plain http off localhost); "no-webgpu" when there is no navigator.gpu otherwise (browser) or
 *   the `webgpu` package cannot load (Node); "no-adapter" when requestAdapter() gives null; "device-failed" when
 *   requestDevice() rejects. The message says how to get WebGPU.
 */
export async function acquireGpu(options: AcquireOptions = {}): Promise<GpuContext> {
  const host: "browser" | "node" = options.gpu || !isNode() ? "browser" : "node";
  const help = host === "node" ? WEBGPU_HELP.node : WEBGPU_HELP.browser;
  let gpu: GPU | undefined = options.gpu;
  if (!gpu && host === "browser") gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu && host === "node") {
    try {
      gpu = await nodeGpu();
    } catch (e) {
      throw new GpuUnavailableError("no-webgpu", `the npm package 'webgpu' did not load (${e}). ${help}`);
    }
  }
  if (!gpu) throw browserWithoutGpu(globalThis.isSecureContext);

  const powerPreference = options.powerPreference ?? "high-performance";
  let adapter = await gpu.requestAdapter({ powerPreference }).catch(() => null);
  if (!adapter && host === "node" && (await pointVulkanAtSwiftshader())) {
    gpu = await nodeGpu();
    adapter = await gpu.requestAdapter({ powerPreference }).catch(() => null);
  }
  if (!adapter)
    throw new GpuUnavailableError("no-adapter", `WebGPU is present but no adapter is available. ${help}`);

  const info = await adapterInfo(adapter);
  const requiredLimits: Record<string, number> = {};
  for (const k of RAISED_LIMITS) requiredLimits[k] = adapter.limits[k];
  const requiredFeatures: GPUFeatureName[] = [];
  if ((options.timestamps ?? true) && adapter.features.has("timestamp-query"))
    requiredFeatures.push("timestamp-query");
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ label: "rlhf-playground", requiredLimits, requiredFeatures });
  } catch (e) {
    throw new GpuUnavailableError("device-failed", `requestDevice() failed: ${e}. ${help}`);
  }
  return new GpuContext(device, report(adapter, info, device, host));
}
