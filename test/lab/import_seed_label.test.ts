/**
 * A run imported for comparison from another seed than this lab's says its seed in its label: "PPO (imported,
 * seed 0)" (src/lab/export/run_file.ts importedSpec), also for a run that had its own seed (RunSpec.seed) where it
 * was exported; a run from this lab's seed stays "PPO (imported)". The mark is a history mark: a restart drops it.
 */
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { runFileJson } from "../../src/lab/export/run_file";
import { restartedSpecs } from "../../src/lab/run_labels";
import { importRunFiles } from "../../src/ui/lab/import_run";
import { useLab } from "../../src/ui/lab_store";
import { exported, file, weightsOf } from "./import_files";
import { points, stubPage } from "./session_page";

stubPage(() => {});

const labels = () => useLab.getState().spec.runs.map((r) => r.label);

describe("an imported run's seed in its label", () => {
  it("says the seed of a run from another seed, once per import", async () => {
    useLab.getState().setSpec({ ...defaultExperiment(), seed: 5 });
    const notice = await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    expect(labels().at(-1)).toBe("PPO (imported, seed 0)");
    expect(notice).toMatch(/^Added PPO \(imported, seed 0\)/);
    await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    expect(labels().at(-1)).toBe("PPO (imported 2, seed 0)");
    // Restarted (Change…, Reset), it is no import any more: the mark goes with its seed.
    const again = restartedSpecs(useLab.getState().spec.runs);
    expect(again.slice(3).map((r) => r.label)).toEqual(["PPO 2", "PPO 3"]);
  });

  it("a run on its own seed in a lab of this seed: its seed; this lab's seed: no mark", async () => {
    const spec = defaultExperiment();
    const own = { ...spec.runs[0], label: "PPO β 1", seed: 1 };
    useLab.getState().setSpec(defaultExperiment());
    const text = runFileJson(spec, { spec: own, status: "paused", step: 4, history: points(4), markers: [] });
    await importRunFiles([file("ppo.run.json", text)]);
    expect(labels().at(-1)).toBe("PPO β 1 (imported, seed 1)");
    await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    expect(labels().at(-1)).toBe("PPO (imported)");
  });

  it("a run on its own seed goes on training from its checkpoint in a lab of another seed (same start model)", async () => {
    const spec = defaultExperiment();
    const own = { ...spec.runs[0], label: "PPO seed 1", seed: 1 };
    const text = runFileJson(spec, { spec: own, status: "paused", step: 4, history: points(4), markers: [] });
    const importInto = async (lab: typeof spec) => {
      useLab.getState().setSpec(lab);
      const added: string[] = [];
      const notice = await importRunFiles(
        [file("ppo.run.json", text), weightsOf("ppo.safetensors", { run: "PPO seed 1", seed: "1" })],
        {
          addRun: async (s) => {
            added.push(s.id);
            useLab.getState().upsertRun(s);
          },
          loadRunCheckpoint: async () => {},
        },
      );
      return { added, notice, run: useLab.getState().spec.runs.at(-1) };
    };
    // The shipped start model does not depend on the lab's seed: it trains on, on its own seed 1.
    const sft = await importInto({ ...spec, seed: 7 });
    expect(sft.added).toHaveLength(1);
    expect(sft.notice).toMatch(/continues from step 4/);
    expect(sft.run?.seed).toBe(1);
    // A seeded fresh init (a preset model) is the lab's seed's: the file does not say which, so comparison only.
    const preset = runFileJson(
      { ...spec, model: "nano" },
      { spec: own, status: "paused", step: 4, history: points(4), markers: [] },
    );
    useLab.getState().setSpec({ ...spec, model: "nano", seed: 7 });
    const added: string[] = [];
    const notice = await importRunFiles(
      [file("ppo.run.json", preset), weightsOf("ppo.safetensors", { run: "PPO seed 1", seed: "1" })],
      { addRun: async (s) => void added.push(s.id), loadRunCheckpoint: async () => {} },
    );
    expect(added).toEqual([]);
    expect(notice).toMatch(/for comparison/);
  });
});
