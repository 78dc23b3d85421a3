/**
 * Importing a run (src/ui/lab/import_run.ts), in Node: the stubbed page of ./session_page.ts. A run file adds a
 * comparison run, or a run that trains on when its own checkpoint comes along; a checkpoint of another run,
 * step, seed or experiment is not loaded, and the notice says why. Comparison runs across reloads are in
 * ./session_import_reload.test.ts.
 */
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { runFileJson } from "../../src/lab/export/run_file";
import type { ExperimentSpec, RunCounters, RunSpec } from "../../src/lab/protocol";
import { decodeSafetensors } from "../../src/model/safetensors";
import { importRunFiles } from "../../src/ui/lab/import_run";
import { usePipelineStore } from "../../src/ui/lab/pipeline_store";
import { useLab } from "../../src/ui/lab_store";
import { exported, file, weightsOf } from "./import_files";
import { points, stubPage } from "./session_page";

stubPage(() => {});

describe("importing a run", () => {
  it("adds a comparison run with its curves, renamed when its id is taken", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const notice = await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))]);
    const s = useLab.getState();
    expect(s.spec.runs.map((r) => r.id)).toEqual(["ppo-1", "dpo-1", "grpo-1", "ppo-2"]);
    expect(s.runs["ppo-2"].history).toHaveLength(4);
    expect(s.runs["ppo-2"].spec.label).toBe("PPO (imported)");
    expect(s.runs["ppo-2"].comparison).toBe(true);
    expect(notice).toMatch(/^Added PPO \(imported\) with its 4 steps of curves, for comparison/);
    // Its setting-change markers follow it to its new id (they kept "ppo-1": the charts' tables named the wrong
    // run, and its next export wrote them under ppo-1).
    const marked = JSON.parse(exported(defaultExperiment()));
    marked.markers = [{ runId: "ppo-1", step: 2, label: "beta 0.05 → 0.1" }];
    await importRunFiles([file("marked.run.json", JSON.stringify(marked))]);
    const third = useLab.getState().spec.runs.at(-1)?.id ?? "";
    expect(third).toBe("ppo-3");
    expect(useLab.getState().runs[third].markers).toEqual([
      { runId: "ppo-3", step: 2, label: "beta 0.05 → 0.1" },
    ]);
    // The run card says the notice gave the reason: here, no checkpoint came with it.
    expect(notice).toContain(
      "No checkpoint came with it: import its .json and .safetensors together (Export → Checkpoint (safetensors)) to keep training it.",
    );
    // Files Import does not take are named, not skipped in silence.
    const more = await importRunFiles([
      file("ppo.run.json", exported(defaultExperiment())),
      file("policy.onnx", "onnx"),
      file("notes.txt", "hello"),
    ]);
    expect(more).toContain(
      "policy.onnx was not imported: Import takes a run's .json and .safetensors. policy.onnx: a reward model in .onnx loads with Load RM (top bar); a policy's .onnx is an export for other tools.",
    );
    // An .onnx picked alone is told where it goes too.
    const alone = await importRunFiles([file("rm.onnx", "onnx")]);
    expect(alone).toMatch(/^Import needs a run file \(\.json/);
    expect(alone).toContain("rm.onnx: a reward model in .onnx loads with Load RM (top bar)");
    expect(more).toContain(
      "notes.txt was not imported: Import takes a run's .json (Export → Run (JSON)) and its .safetensors.",
    );
  });

  it("says once, for several comparison runs, what happens to them", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const spec = defaultExperiment();
    const fileOf = (i: number) =>
      runFileJson(spec, { spec: spec.runs[i], status: "paused", step: 2, history: points(2), markers: [] });
    const notice = await importRunFiles([file("ppo.run.json", fileOf(0)), file("grpo.run.json", fileOf(2))]);
    expect(notice).toMatch(/^Added PPO \(imported\).*Added GRPO \(imported\)/);
    expect(notice).not.toContain("This browser keeps it across");
    expect(notice.match(/This browser keeps/g)).toHaveLength(1);
    expect(notice).toMatch(
      /This browser keeps the comparison runs across reloads and under Recent experiments; shared links leave them out\.$/,
    );
  });

  it("continues training an imported run when its checkpoint comes along", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const added: string[] = [];
    const loads: [string, RunCounters][] = [];
    const notice = await importRunFiles(
      [file("ppo.run.json", exported(defaultExperiment())), weightsOf("ppo.safetensors")],
      {
        addRun: async (spec) => {
          added.push(spec.id);
          useLab.getState().upsertRun(spec);
        },
        loadRunCheckpoint: async (id, _b, at) => {
          loads.push([id, at]);
        },
      },
    );
    expect(added).toEqual(["ppo-2"]);
    expect(loads).toEqual([["ppo-2", { step: 4, samples: 32, tokens: 200 }]]);
    expect(useLab.getState().runs["ppo-2"].history).toHaveLength(4);
    expect(notice).toMatch(/continues from step 4, from its weights; its AdamW moments start afresh/);
    // A PPO with a separate critic takes it from the file (value_model.* tensors) when the file holds it.
    const critic = { ...defaultExperiment().runs[0], config: { valueModel: "separate" } };
    const importCritic = (tensors: string[]) =>
      importRunFiles(
        [
          file("ppo.run.json", exported({ ...defaultExperiment(), runs: [critic] })),
          weightsOf("ppo.safetensors", {}, tensors),
        ],
        { addRun: async (spec) => useLab.getState().upsertRun(spec), loadRunCheckpoint: async () => {} },
      );
    expect(await importCritic(["value_model.wte.weight"])).toMatch(
      /from its weights and its separate value model's; its AdamW moments \(both models'\) start afresh/,
    );
    // A file from before value models were saved lacks it: the notice says the value model starts afresh.
    expect(await importCritic([])).toMatch(
      /its AdamW moments \(and its separate value model, which this file does not hold\) start afresh/,
    );
  });

  it("keeps a run trained from the Pipeline's model for comparison where the runs start from another", async () => {
    // Exported after "Use in RL": its reference (and KL) is the Pipeline's model, not the experiment's.
    const source = "pipeline: nano (2 layers, C = 32, context 32) after 40 SFT steps (this page)";
    const text = runFileJson(
      defaultExperiment(),
      { spec: defaultExperiment().runs[0], status: "paused", step: 4, history: points(4), markers: [] },
      new Date(),
      source,
    );
    expect(JSON.parse(text).experiment.startModel).toBe(source);
    for (const [here, expectLoad] of [
      [null, false],
      [source, true],
    ] as const) {
      useLab.getState().setSpec(defaultExperiment());
      usePipelineStore.setState({ handedOff: here });
      const loads: string[] = [];
      const notice = await importRunFiles([file("ppo.run.json", text), weightsOf("ppo.safetensors")], {
        addRun: async (spec) => useLab.getState().upsertRun(spec),
        loadRunCheckpoint: async (id) => {
          loads.push(id);
        },
      });
      expect(loads.length > 0, String(here)).toBe(expectLoad);
      if (!expectLoad) {
        expect(notice).toMatch(/for comparison/);
        expect(notice).toContain("(the Pipeline's SFT model (nano, 40 steps), seed 0)");
        expect(notice).toContain(
          "Its checkpoint was not loaded: it trained in another experiment (another start model), and training it on here would join two experiments' steps in one curve.",
        );
      }
    }
    // The same hand-off's name in a lab of another seed: the Pipeline trained it from another seed's preset, so
    // another start model and reference.
    useLab.getState().setSpec({ ...defaultExperiment(), seed: 5 });
    usePipelineStore.setState({ handedOff: source });
    const loads: string[] = [];
    const notice = await importRunFiles([file("ppo.run.json", text), weightsOf("ppo.safetensors")], {
      addRun: async (spec) => useLab.getState().upsertRun(spec),
      loadRunCheckpoint: async (id) => void loads.push(id),
    });
    expect(loads).toEqual([]);
    expect(notice).toContain(
      "another seed: the Pipeline's model was trained from a preset initialised from the seed",
    );
    usePipelineStore.setState({ handedOff: null });
    // Only the seed differs, on the shipped SFT model (which no seed changes): it trains on here, on its seed 0.
    const into = async (lab: ExperimentSpec, from: ExperimentSpec) => {
      useLab.getState().setSpec(lab);
      const loads: string[] = [];
      const notice = await importRunFiles(
        [file("ppo.run.json", exported(from)), weightsOf("ppo.safetensors")],
        {
          addRun: async (spec) => useLab.getState().upsertRun(spec),
          loadRunCheckpoint: async (id) => {
            loads.push(id);
          },
        },
      );
      return { loads, notice, run: useLab.getState().spec.runs.at(-1) };
    };
    const sft = await into({ ...defaultExperiment(), seed: 5 }, defaultExperiment());
    expect(sft.loads).toHaveLength(1);
    expect(sft.run?.seed).toBe(0);
    // On a preset model, a fresh init from the experiment's seed: the notice names the seed and why it matters.
    const nano = { ...defaultExperiment(), model: "nano" as const };
    const seeded = await into({ ...nano, seed: 5 }, nano);
    expect(seeded.loads).toEqual([]);
    expect(seeded.notice).toContain("(nano (random init), seed 0)");
    expect(seeded.notice).toContain(
      "(another seed: a preset start model is initialised from the seed), and training it on here",
    );
  });

  it("pairs each run file with its own checkpoint, and loads none that belongs to another run", async () => {
    const spec = defaultExperiment();
    const fileOf = (i: number, step: number) =>
      runFileJson(spec, { spec: spec.runs[i], status: "paused", step, history: points(step), markers: [] });
    const loads: [string, string][] = [];
    const deps = {
      addRun: async (r: RunSpec) => useLab.getState().upsertRun(r),
      loadRunCheckpoint: async (id: string, b: Uint8Array) => {
        loads.push([id, decodeSafetensors(b).metadata.run]);
      },
    };
    // A tester's pick: three run files, the checkpoints of DPO and GRPO (DPO's first).
    useLab.getState().setSpec(spec);
    const notice = await importRunFiles(
      [
        file("ppo.run.json", fileOf(0, 4)),
        file("dpo.run.json", fileOf(1, 4)),
        file("grpo.run.json", fileOf(2, 4)),
        weightsOf("dpo.safetensors", { algo: "dpo", run: "DPO" }),
        weightsOf("grpo.safetensors", { algo: "grpo", run: "GRPO" }),
      ],
      deps,
    );
    const labels = (id: string) => useLab.getState().runs[id]?.spec.label;
    expect(loads.map(([id, run]) => [labels(id), run])).toEqual([
      ["DPO (imported)", "DPO"],
      ["GRPO (imported)", "GRPO"],
    ]);
    const ppo = Object.values(useLab.getState().runs).find((r) => r.spec.label === "PPO (imported)");
    expect(ppo?.comparison).toBe(true);
    expect(notice).toMatch(
      /Added PPO \(imported\).*for comparison.*Imported DPO \(imported\).*Imported GRPO/,
    );
    // One run file with another run's checkpoint, or one saved at another step: not loaded, and said why.
    for (const [meta, why] of [
      [{ algo: "grpo", run: "GRPO" }, 'it holds the weights of a grpo run ("GRPO"), not of this ppo run'],
      [{ steps: "25" }, "it was saved at step 25 and the run file's curves end at step 4"],
      [{ seed: "3" }, "it was trained with seed 3, the run file with seed 0"],
    ] as const) {
      useLab.getState().setSpec(spec);
      loads.length = 0;
      const one = await importRunFiles(
        [file("ppo.run.json", fileOf(0, 4)), weightsOf("x.safetensors", meta)],
        deps,
      );
      expect(loads).toEqual([]);
      expect(one).toContain(`Its checkpoint was not loaded: ${why}`);
    }
    // A file whose task this lab does not know: compared, not trained, and not said to come from the default.
    useLab.getState().setSpec(spec);
    loads.length = 0;
    const chess = JSON.parse(fileOf(0, 4));
    chess.experiment.task = "chess";
    const unknown = await importRunFiles(
      [file("ppo.run.json", JSON.stringify(chess)), weightsOf("ppo.safetensors")],
      deps,
    );
    expect(loads).toEqual([]);
    expect(unknown).toMatch(/for comparison/);
    expect(unknown).toContain(
      'does not say where it trained in terms this lab knows (“task” must be one of sentiment | arithmetic, got "chess")',
    );
    expect(unknown).not.toContain("It was trained on sentiment");
    // An unreadable checkpoint is named.
    useLab.getState().setSpec(spec);
    const cut = await importRunFiles(
      [file("ppo.run.json", fileOf(0, 4)), file("x.safetensors", "cut")],
      deps,
    );
    expect(cut).toMatch(
      /for comparison.*x\.safetensors could not be read as a safetensors checkpoint \(file too short/,
    );
    // A text file renamed .safetensors: its first 8 bytes read as a huge header length.
    const text = await importRunFiles(
      [file("ppo.run.json", fileOf(0, 4)), file("notes.safetensors", "hello, these are my notes")],
      deps,
    );
    expect(text).toMatch(
      /notes\.safetensors could not be read as a safetensors checkpoint \(its first 8 bytes give a header of \d+ bytes, more than the 17 bytes after them: not a safetensors file, or cut short\)/,
    );
  });

  it("shows a run whose checkpoint fails to load for comparison, after the worker has dropped it", async () => {
    useLab.getState().setSpec(defaultExperiment());
    const removed: string[] = [];
    const notice = await importRunFiles(
      [file("ppo.run.json", exported(defaultExperiment())), weightsOf("ppo.safetensors")],
      {
        addRun: async (spec) => {
          useLab.getState().upsertRun(spec);
        },
        loadRunCheckpoint: async () => {
          throw new Error("header length 5472 exceeds the file (3000 bytes)");
        },
        // As the page's: the removal lands a moment later (after the worker answers).
        removeRun: (id) =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              removed.push(id);
              useLab.getState().removeRun(id);
              resolve();
            }, 5),
          ),
      },
    );
    await new Promise((r) => setTimeout(r, 20));
    const s = useLab.getState();
    expect(removed).toEqual(["ppo-2"]);
    expect(s.runs["ppo-2"]?.comparison).toBe(true);
    expect(s.runs["ppo-2"].history).toHaveLength(4);
    expect(s.spec.runs.map((r) => r.id)).toContain("ppo-2");
    expect(notice).toMatch(/for comparison.*did not load \(header length 5472/);
  });

  it("shows at most two runs per colour (solid and dotted): an import past that is refused by name", async () => {
    const grpo = defaultExperiment().runs[2];
    const twelve = Array.from({ length: 12 }, (_, i) => ({
      ...grpo,
      id: `g${i}`,
      label: `GRPO ${i}`,
      colour: i,
    }));
    useLab.getState().setSpec({ ...defaultExperiment(), runs: twelve });
    for (let i = 0; i < 2; i++)
      expect(await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))])).toMatch(/^Added /);
    expect(Object.keys(useLab.getState().runs)).toHaveLength(14);
    expect(await importRunFiles([file("ppo.run.json", exported(defaultExperiment()))])).toBe(
      "PPO was not imported: the lab shows at most 14 runs side by side (its 7 colours, solid and dotted), so remove one first.",
    );
    expect(Object.keys(useLab.getState().runs)).toHaveLength(14);
  });

  it("refuses files that are not run files, with a notice", async () => {
    expect(await importRunFiles([file("x.csv", "a,b")])).toMatch(/needs a run file/);
    expect(await importRunFiles([file("x.json", "{nope")])).toMatch(/not JSON/);
    // A checkpoint whose metadata is a string, not an object: a clear reason, the run still comes as curves.
    const h = new TextEncoder().encode(JSON.stringify({ __metadata__: "abc" }));
    const bytes = new Uint8Array(8 + h.length);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(h.length), true);
    bytes.set(h, 8);
    useLab.getState().setSpec(defaultExperiment());
    const odd = await importRunFiles([
      file("ppo.run.json", exported(defaultExperiment())),
      { name: "ppo.safetensors", text: async () => "", arrayBuffer: async () => bytes.buffer as ArrayBuffer },
    ]);
    expect(odd).toMatch(/__metadata__ is not an object of strings/);
    expect(odd).toMatch(/Added PPO \(imported\)/);
  });
});
