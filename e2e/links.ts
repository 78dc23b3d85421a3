import LZString from "lz-string";
import { testExperiment } from "../src/lab/defaults";
import type { ExperimentSpec } from "../src/lab/protocol";
import type { SharedView } from "../src/lab/settings";

/**
 * An experiment's link in src/lab/url.ts's format (`#s=` + lz-string JSON, version 1), built here because
 * url.ts pulls in the algorithm registry (WGSL imports), which Playwright's Node loader cannot read.
 */
export function linkOf(spec: ExperimentSpec, view?: Partial<SharedView>): string {
  const { task, model, seed, runs, steps, preset } = spec;
  const payload = {
    v: 1,
    task,
    model,
    seed,
    runs: runs.map(({ id, algo, label, config, seed }) => ({
      id,
      algo,
      label,
      config,
      ...(seed !== undefined && { seed }),
    })),
    ...(steps && { steps }),
    ...(preset && { preset }),
    ...(view && { view }),
  };
  return `#s=${LZString.compressToEncodedURIComponent(JSON.stringify(payload))}`;
}

/** The test-sized experiment's link (src/lab/defaults.ts testExperiment: arithmetic, nano, tiny batches). */
export function testLink(): string {
  return linkOf(testExperiment());
}
