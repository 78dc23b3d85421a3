/**
 * The app's state (zustand): where the GPU stands, the adapter we got, the kernel self-test and the errors to
 * show. Written by boot.ts and the error hooks in main.tsx; read by the components. No GPU objects live here.
 */
import { create } from "zustand";
import type { AdapterReport } from "../gpu/device";
import type { GpuUnavailableReason } from "../gpu/errors";
import type { SelfTestResult } from "../kernels/selftest";
import type { MatmulThroughput } from "../kernels/throughput";
import type { KeptChecks } from "./gpu_checks_kept";
import { reloadForEdit } from "./hot_reload";

/** acquiring → ready, or → unavailable (no WebGPU at all); ready → lost when the device goes away. */
export type GpuStatus = "acquiring" | "ready" | "unavailable" | "lost";

export type SelfTestStatus = "waiting" | "running" | "done" | "failed";

export interface Unavailable {
  reason: GpuUnavailableReason;
  message: string;
}

export interface AppState {
  gpu: GpuStatus;
  adapter: AdapterReport | null;
  hasTimestamps: boolean;
  unavailable: Unavailable | null;
  selfTest: SelfTestStatus;
  /** Results so far, in the order the kernels ran. */
  results: SelfTestResult[];
  /** Why the self-test stopped early, if it did (shown in its card). */
  selfTestError: string | null;
  /** The measured matmul throughput (performance card); null until measured. */
  perf: MatmulThroughput | null;
  /** Why the measurement failed, if it did. */
  perfError: string | null;
  /** When the shown self-test and throughput ran, ms since the epoch, when this browser kept them from an
   * earlier load (./gpu_checks_kept.ts); null when they ran in this page. */
  checkedAt: number | null;
  /** Errors shown in the banner, oldest first (GPU validation errors, uncaught exceptions). */
  errors: string[];
  /** The banner says the System panel's checks lost their GPU device (until dismissed or a new device). */
  lostShown: boolean;

  gpuReady(adapter: AdapterReport, hasTimestamps: boolean): void;
  gpuUnavailable(u: Unavailable): void;
  /** The page's own device (the System panel's checks; training has its own in the worker) was lost. */
  deviceLost(): void;
  selfTestStarted(): void;
  selfTestResult(r: SelfTestResult): void;
  selfTestFinished(error?: string): void;
  reportError(message: string): void;
  dismissErrors(): void;
  perfMeasured(p: MatmulThroughput | null, error?: string): void;
  /** Show the checks an earlier load kept instead of running them. */
  checksRestored(kept: KeptChecks): void;
}

/** The banner keeps the latest few; a kernel in a loop can raise the same error thousands of times. */
const MAX_ERRORS = 5;

export const useApp = create<AppState>()((set) => ({
  gpu: "acquiring",
  adapter: null,
  hasTimestamps: false,
  unavailable: null,
  selfTest: "waiting",
  results: [],
  selfTestError: null,
  perf: null,
  perfError: null,
  checkedAt: null,
  errors: [],
  lostShown: false,

  gpuReady: (adapter, hasTimestamps) => set({ gpu: "ready", adapter, hasTimestamps, lostShown: false }),
  gpuUnavailable: (unavailable) => set({ gpu: "unavailable", unavailable }),
  deviceLost: () => set({ gpu: "lost", lostShown: true }),
  selfTestStarted: () =>
    set({
      selfTest: "running",
      results: [],
      selfTestError: null,
      perf: null,
      perfError: null,
      checkedAt: null,
    }),
  selfTestResult: (r) => set((s) => ({ results: [...s.results, r] })),
  selfTestFinished: (error) =>
    set(error ? { selfTest: "failed", selfTestError: error } : { selfTest: "done" }),
  reportError: (message) => set((s) => ({ errors: appendError(s.errors, message) })),
  dismissErrors: () => set({ errors: [], lostShown: false }),
  perfMeasured: (perf, error) => set({ perf, perfError: error ?? null }),
  checksRestored: (kept) =>
    set({
      selfTest: "done",
      results: kept.results,
      selfTestError: null,
      perf: kept.perf,
      perfError: null,
      checkedAt: kept.at,
    }),
}));

function appendError(errors: string[], message: string): string[] {
  if (errors.at(-1) === message) return errors;
  return [...errors, message].slice(-MAX_ERRORS);
}

// Editing this module under `npx vite` reloads the page, saving first (./hot_reload.ts): never two of its state.
if (import.meta.hot) {
  import.meta.hot.accept();
  import.meta.hot.dispose(() => reloadForEdit());
}
