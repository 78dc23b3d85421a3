/**
 * The Pipeline's ready-made settings (src/lab/pipeline/recipes.ts): valid for its field table, "quick" is the
 * defaults, and "shipped" is what made each task's shipped SFT and proxy reward model (public/models/manifest.json),
 * on the same pairs.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pipelineSettings } from "../../src/lab/pipeline/fields";
import { RM_PAIRS_FILE } from "../../src/lab/pipeline/pairs";
import { pipelineRecipes, recipeOf } from "../../src/lab/pipeline/recipes";
import { TASK_IDS } from "../../src/tasks";

interface Entry {
  path: string;
  steps: number;
  batch?: [number, number];
  batch_pairs?: number;
  lr?: number;
  data?: string;
  schedule?: { lr: number; minLr: number };
}
const manifest = JSON.parse(readFileSync("public/models/manifest.json", "utf8")) as { files: Entry[] };
const entry = (path: string) => {
  const e = manifest.files.find((f) => f.path === path);
  if (!e) throw new Error(`${path} is not in the manifest`);
  return e;
};

describe("Pipeline recipes", () => {
  for (const task of TASK_IDS)
    it(`${task}: valid settings; quick is the defaults; shipped is the shipped models' recipe`, () => {
      const [quick, shipped] = pipelineRecipes(task);
      for (const r of [quick, shipped]) expect(pipelineSettings(r.settings)).toEqual(r.settings);
      expect(quick.settings).toEqual(pipelineSettings());
      expect(recipeOf(task, pipelineSettings())).toBe("quick");
      expect(recipeOf(task, shipped.settings)).toBe("shipped");
      expect(recipeOf(task, { ...shipped.settings, rmSteps: 1499 })).toBeNull();
      const s = shipped.settings;
      expect(s.size).toBe("tiny");
      const sft = entry(`models/${task}/sft.safetensors`);
      const rm = entry(`models/${task}/rm.safetensors`);
      expect([s.sftSteps, s.sftBatch]).toEqual([sft.steps, sft.batch?.[0]]);
      // The Pipeline's lr is constant: the shipped run's (constant after warmup), or within its decay.
      expect(s.sftLr).toBeGreaterThanOrEqual(sft.schedule?.minLr ?? Number.NaN);
      expect(s.sftLr).toBeLessThanOrEqual(sft.schedule?.lr ?? Number.NaN);
      expect([s.rmSteps, s.rmBatch, s.rmLr]).toEqual([rm.steps, rm.batch_pairs, rm.lr]);
      // Stage 2 learns the pairs the shipped reward model learnt.
      expect(`models/${task}/${RM_PAIRS_FILE[task]}`).toBe(rm.data);
    });
});
