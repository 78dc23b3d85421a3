/**
 * Exports say which lab wrote them and with which model files (src/lab/export/provenance.ts): config.json and
 * run.json carry lab {version, commit}, settingsRevision, exportedAt and the shipped start and reward models'
 * SHA-256 (public/models/manifest.json, stamped by build/version.ts through vitest's define as through Vite's);
 * the footer names the version. A run file from before these fields still imports.
 */
import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { buildStamp } from "../../build/version";
import { LAB_BUILD } from "../../src/lab/build_info";
import { SETTINGS_REVISION } from "../../src/lab/default_changes";
import { runConfig } from "../../src/lab/export/config";
import { parseRunFile, runFile, runFileJson } from "../../src/lab/export/run_file";
import type { RunSpec } from "../../src/lab/protocol";
import { Credits } from "../../src/ui/Credits";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
const manifest = JSON.parse(readFileSync("public/models/manifest.json", "utf8")) as {
  files: { path: string; sha256: string }[];
};
const sha = (path: string) => manifest.files.find((f) => f.path === path)?.sha256;
const experiment = { task: "arithmetic" as const, model: "sft" as const, seed: 0 };
const proxy: RunSpec = { id: "grpo-1", algo: "grpo", label: "GRPO proxy", config: { reward: "proxy" } };
const now = new Date("2027-01-02T03:04:05.000Z");

describe("citable exports", () => {
  it("the build stamp: package.json's version, the git commit (short SHA, -dirty, or unknown)", () => {
    expect(LAB_BUILD.version).toBe(pkg.version);
    expect(LAB_BUILD.commit).toMatch(/^([0-9a-f]{7,40}(-dirty)?|unknown)$/);
    expect(LAB_BUILD).toEqual(buildStamp());
  });

  it("config.json names the lab, the settings revision, the export time and the models' SHA-256", () => {
    const c = runConfig(experiment, proxy, null, undefined, [], now);
    expect(c.lab).toEqual({ version: pkg.version, commit: LAB_BUILD.commit });
    expect(c.settingsRevision).toBe(SETTINGS_REVISION);
    expect(c.exportedAt).toBe("2027-01-02T03:04:05.000Z");
    expect(c.models?.start).toEqual({
      path: "models/arithmetic/sft.safetensors",
      sha256: sha("models/arithmetic/sft.safetensors"),
    });
    expect(c.models?.reward).toEqual({
      path: "models/arithmetic/rm.onnx",
      sha256: sha("models/arithmetic/rm.onnx"),
    });
    expect(c.models?.start?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // A fresh GPT and the gold scorer use no shipped file; nor does the Pipeline's hand-off.
    const gold = { ...proxy, config: { reward: "gold" } };
    expect(runConfig({ ...experiment, model: "nano" }, gold, null, undefined, [], now).models).toEqual({
      start: null,
      reward: null,
    });
    expect(runConfig(experiment, gold, "pipeline: nano", undefined, [], now).models?.start).toBeNull();
  });

  it("run.json carries the same; a run file without them (older) imports as before", () => {
    const run = { spec: proxy, status: "paused" as const, step: 0, history: [], markers: [] };
    const f = runFile(experiment, run, now);
    expect(f.lab).toEqual({ version: pkg.version, commit: LAB_BUILD.commit });
    expect(f.models?.reward?.sha256).toBe(sha("models/arithmetic/rm.onnx"));
    expect(f.exportedAt).toBe("2027-01-02T03:04:05.000Z");
    const { lab: _l, models: _m, ...older } = JSON.parse(runFileJson(experiment, run, now));
    const back = parseRunFile(JSON.stringify(older));
    expect(back.ok && back.issues).toEqual([]);
    expect(back.ok && back.run).toEqual(proxy);
  });

  it("a comparison run saved before origins were kept re-exports as from nowhere known, not 'undefined'", () => {
    // Saved by an older lab: comparison, no origin. Its run.json says "experiment": {}.
    const run = {
      spec: proxy,
      status: "paused" as const,
      step: 0,
      history: [],
      markers: [],
      comparison: true,
    };
    const f = JSON.parse(runFileJson(experiment, run, now));
    expect(f.experiment).toEqual({});
    const back = parseRunFile(JSON.stringify(f));
    expect(back.ok && back.knownExperiment).toBe(false);
    expect(back.ok && back.issues.filter((i) => i.startsWith("experiment."))).toEqual(
      ["task", "model", "seed"].map((k) => expect.stringContaining(`experiment.${k} must be given`)),
    );
    expect(back.ok && back.origin).toEqual({});
  });

  it("the footer says which lab this is", () => {
    const html = renderToStaticMarkup(createElement(Credits));
    expect(html).toContain(`RLHF Playground ${pkg.version} (${LAB_BUILD.commit})`);
  });
});
