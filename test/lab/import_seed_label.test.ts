/**
 * A run imported for comparison from another seed than this lab's says its seed in its label: "PPO (imported,
 * seed 0)" (src/lab/export/run_file.ts importedSpec), also for a run that had its own seed (RunSpec.seed) where it
 * was exported; a run from this lab's seed stays "PPO (imported)". The mark is a history mark: a restart drops it.
 * A run goes on training (with its checkpoint) where its start model is this lab's: the same experiment seed, or
 * a start that does not depend on it (the shipped SFT model), on the seed it trained with (its own, else its
 * experiment's); the file's experiment.seed is the start model's, run.seed the run's own.
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

  it("a run on its own seed goes on training where its start model is this lab's, on its own seed", async () => {
    const spec = defaultExperiment();
    const own = { ...spec.runs[0], label: "PPO seed 1", seed: 1 };
    const record = { spec: own, status: "paused" as const, step: 4, history: points(4), markers: [] };
    const importInto = async (lab: typeof spec, text: string, meta = { run: "PPO seed 1", seed: "1" }) => {
      useLab.getState().setSpec(lab);
      const added: string[] = [];
      const notice = await importRunFiles([file("ppo.run.json", text), weightsOf("ppo.safetensors", meta)], {
        addRun: async (s) => {
          added.push(s.id);
          useLab.getState().upsertRun(s);
        },
        loadRunCheckpoint: async () => {},
      });
      return { added, notice, run: useLab.getState().spec.runs.at(-1) };
    };
    // The shipped start model does not depend on the lab's seed: it trains on, on its own seed 1.
    const sft = await importInto({ ...spec, seed: 7 }, runFileJson(spec, record));
    expect(sft.added).toHaveLength(1);
    expect(sft.notice).toMatch(/continues from step 4/);
    expect(sft.run?.seed).toBe(1);
    // A run with no own seed from a seed-0 lab on the shipped model, into a seed-7 lab: it trains on seed 0.
    const plain = await importInto({ ...spec, seed: 7 }, exported(spec), { run: "PPO", seed: "0" });
    expect(plain.added).toHaveLength(1);
    expect(plain.run?.seed).toBe(0);
    // A preset start model is a fresh init from the experiment's seed (the file's experiment.seed: 0).
    const nano = { ...spec, model: "nano" as const };
    const preset = runFileJson(nano, record);
    // In a nano lab of seed 1 (the run's own seed, not its start model's): comparison only.
    const seed1 = await importInto({ ...nano, seed: 1 }, preset);
    expect(seed1.added).toEqual([]);
    expect(seed1.notice).toMatch(/for comparison/);
    expect(seed1.notice).toMatch(/a preset start model is initialised from the seed/);
    expect((await importInto({ ...nano, seed: 7 }, preset)).added).toEqual([]);
    // In a nano lab of seed 0 (its start model's): it trains on, on its own seed 1.
    const seed0 = await importInto(nano, preset);
    expect(seed0.added).toHaveLength(1);
    expect(seed0.run?.seed).toBe(1);
  });
});
