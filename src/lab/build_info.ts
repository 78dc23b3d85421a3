/**
 * Which lab wrote an export: its version, the git commit it was built from and the shipped model files' SHA-256,
 * stamped at build time (build/version.ts through Vite's and vitest's `define` as `__LAB_BUILD__`). Where nothing
 * is defined (the Node CLI, scripts) the version and commit read "unknown" and no model digest is known.
 */

/** The build's stamp. */
export interface LabBuild {
  /** package.json's version ("0.1.0"), or "unknown". */
  version: string;
  /** Short git SHA ("e82316e"), with "-dirty" when built from uncommitted changes; "unknown" without git. */
  commit: string;
  /** Shipped model path ("models/arithmetic/rm.onnx") → SHA-256 (64 hex digits), from models/manifest.json. */
  models: Readonly<Record<string, string>>;
}

declare const __LAB_BUILD__: LabBuild | undefined;

/** This build's stamp. */
export const LAB_BUILD: LabBuild =
  typeof __LAB_BUILD__ === "undefined"
    ? { version: "unknown", commit: "unknown", models: {} }
    : __LAB_BUILD__;

/** "RLHF Playground 0.1.0 (e82316e)": the footer's line. */
export function labVersionText(b: LabBuild = LAB_BUILD): string {
  return `RLHF Playground ${b.version} (${b.commit})`;
}
