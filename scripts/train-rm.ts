/**
 * `npm run train-rm -- --task sentiment|arithmetic [--steps N] [--seed S] [--batch B] [--lr LR] [--center η]
 *   [--data FILE.jsonl] [--init FILE.safetensors] [--preset nano|tiny|small] [--out DIR] [--log-every K]
 *   [--train-eval-pairs N] [--backend tfjs-wasm|wgsl] [--eos ended|always]`
 * `npm run train-rm -- --task T --ship DIR`: make DIR's model (a run with `--out DIR`) the shipped one
 *   (scripts/train-rm/record.ts: it must have trained on the shipped pairs from the shipped SFT model).
 *
 * Trains the learned reward model (the proxy; Ouyang et al. 2022 §3.5) with the Bradley–Terry loss and exports
 * it to ONNX. The step runs on `--backend`: `tfjs-wasm` (default; the TF.js twin of the model on TF.js's WASM
 * backend, scripts/train-rm/tfjs-rm.ts, ~50× faster on a CPU than WebGPU on SwiftShader, as for pretraining) or
 * `wgsl` (the engine's own GPU step, src/rewards/rm_trainer.ts, what the lab's Pipeline runs; use it on a real
 * GPU). test/rewards/rm_tfjs.test.ts checks that both compute the same gradients, steps and scores. The
 * accuracies are scored where the weights train (TF.js or WGSL); the ONNX check always runs on the WGSL engine.
 * - data: the task's reward-model pairs (default public/models/<task>/ + RM_DATA: the shared preferences.jsonl for
 *   sentiment, arithmetic's own larger rm-preferences.jsonl), `train` split for
 *   training, `eval` split held out; each pair as `<bos> prompt completion [<eos>]`: with `--eos ended` (the
 *   default) EOS only on a completion shorter than the task's maxNewTokens, i.e. one that ended (a completion
 *   that filled the limit was cut, and the lab scores a cut sample without EOS); `--eos always` puts EOS on every
 *   completion (how the shipped arithmetic RM was trained: 34 of its 10,000 pairs hold a cut completion);
 * - init: the task's SFT checkpoint (default public/models/<task>/sft.safetensors; one named by `--init` must
 *   exist), or with `--preset` (not with `--init`) a fresh seeded init of that preset with the tokenizer's
 *   vocabulary; when the default checkpoint is missing, a fresh tiny init, with a warning;
 * - optimisation: B pairs per step (default 16) drawn without replacement from a seeded shuffle (epochs), AdamW
 *   (β 0.9/0.95, weight decay 0.1 on matrices, clip 1.0), lr linear warm-up over 10% of the steps then cosine
 *   to 10%; optional reward centring η (default 0);
 * - evaluation (before and after): accuracy on the held-out pairs against the annotator's labels and against
 *   the gold order (the un-flipped preference, ties excluded), and the same on up to 256 train pairs;
 * - output (default DIR public/models/<task>): rm.safetensors (checkpoint, info: task, steps, accuracies) and
 *   rm.onnx (docs/reward-models.md contract), checked: onnxruntime-web scores = WGSL scores within 1e-4 on 32
 *   held-out sequences; train-rm.json beside them holds the run's facts. Writing into public/models/ records
 *   both files in public/models/manifest.json.
 * Deterministic given the seed (data order and init); run time is printed and recorded.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { checkedInput, realNumber, scriptArgs, wholeNumber, writableFolder } from "../cli/args";
import { acquireGpu } from "../src/gpu/device";
import { type Checkpoint, saveCheckpoint } from "../src/model/checkpoint";
import { readCheckpointPath } from "../src/model/checkpoint_files";
import { type GPTConfig, PRESETS, type PresetName, preset } from "../src/model/config";
import { initParams, paramLayout } from "../src/model/params";
import { GptWeights } from "../src/model/weights";
import { exportRewardModelOnnx } from "../src/rewards/onnx_export";
import { loadOnnxRewardModel } from "../src/rewards/onnx_reward_model";
import {
  type EncodedPair,
  encodePreferencePairs,
  type PairAccuracy,
  pairAccuracy,
} from "../src/rewards/rm_eval";
import { RewardModelScorer, RewardModelTrainer } from "../src/rewards/rm_trainer";
import { onnxReward } from "../src/rewards/sources";
import { loadTask } from "../src/tasks/index";
import { parsePreferencesJsonl } from "../src/tasks/preferences";
import { shuffle, tokenizerPathOf } from "../src/tasks/task";
import { readTokenizerFile } from "../src/tokenizer/node";
import { Rng } from "../src/util/rng";
import { codeRevision } from "./code-revision";
import { shellQuote } from "./models-manifest";
import { tfjsWasm } from "./pretrain/tfjs-wasm";
import { inputProblem, taskProblem, USAGE } from "./train-rm/input";
import {
  RM_DEFAULTS,
  type RmBackend,
  type RmEos,
  type TrainRmOptions,
  type TrainRmResult,
} from "./train-rm/options";
import { FACTS_FILE, RM_DATA, recordRewardModel, shipRewardModel } from "./train-rm/record";
import { TfRewardModelTrainer } from "./train-rm/tfjs-rm";

export { inputProblem } from "./train-rm/input";
export {
  RM_DEFAULTS,
  type RmBackend,
  type RmEos,
  type TrainRmOptions,
  type TrainRmResult,
} from "./train-rm/options";

/** The ONNX export must reproduce the WGSL scores within this (the issue's bound). */
const ONNX_TOL = 1e-4;
/** Default number of train pairs scored for the train-split accuracy (a sample: scoring is slow on a CPU adapter). */
const TRAIN_EVAL_PAIRS = 256;

/** ` --key value` for each defined value; values with shell-special characters single-quoted. */
export function commandFlags(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` --${k} ${shellQuote(String(v))}`)
    .join("");
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** lr at 0-based step s: linear warm-up over 10% of the steps, then cosine from lr to lr/10. */
export function rmLr(lr: number, s: number, steps: number): number {
  const warm = Math.max(1, Math.round(steps / 10));
  if (s < warm) return (lr * (s + 1)) / warm;
  const t = (s - warm) / Math.max(1, steps - warm);
  return lr * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * t)));
}

/**
 * Train, evaluate, export. @throws Error when the data file is missing or has no train/eval pairs, `init` is
 * given with `preset` or names no file, the checkpoint's vocabulary differs from the tokenizer's, or the ONNX
 * check fails.
 */
export async function trainRewardModel(o: TrainRmOptions): Promise<TrainRmResult> {
  const t0 = performance.now();
  const revision = codeRevision(); // the code as the run starts (recorded, or kept in FACTS_FILE for --ship)
  const log = o.log ?? console.log;
  const task = o.task;
  const steps = o.steps ?? RM_DEFAULTS[task].steps;
  const seed = o.seed ?? 0;
  const B = o.batch ?? RM_DEFAULTS[task].batch;
  const lr = o.lr ?? RM_DEFAULTS[task].lr;
  const center = o.center ?? 0;
  const dir = `public/models/${task}`;
  const out = o.out ?? dir;
  const dataPath = o.data ?? `${dir}/${RM_DATA[task]}`;
  const initPath = o.init ?? `${dir}/sft.safetensors`;
  const tokenizer = tokenizerPathOf(task);
  const tok = readTokenizerFile(`public/${tokenizer}`);

  const problem = inputProblem(task, o);
  if (problem) throw new Error(problem);
  const fromCheckpoint = o.preset === undefined && existsSync(initPath);
  const records = parsePreferencesJsonl(readFileSync(dataPath, "utf8")).filter((r) => r.task === task);
  const eos = o.eos ?? "ended";
  const sampledLength = eos === "always" ? null : (await loadTask(task)).generation.maxNewTokens;
  const train = encodePreferencePairs(records, tok, sampledLength, "train");
  const heldOut = encodePreferencePairs(records, tok, sampledLength, "eval");
  if (!train.length || !heldOut.length)
    throw new Error(
      `${dataPath}: need train and eval pairs for ${task}, got ${train.length} and ${heldOut.length}`,
    );

  let config: GPTConfig;
  let params: Float32Array;
  let initFrom: string;
  if (fromCheckpoint) {
    const ck = await readCheckpointPath(initPath);
    if (ck.config.vocabSize !== tok.vocabSize)
      throw new Error(`${initPath} has vocabulary ${ck.config.vocabSize}, the tokenizer ${tok.vocabSize}`);
    ({ config, params } = ck);
    initFrom = initPath;
  } else {
    const name = o.preset ?? "tiny";
    const longest = Math.max(...[...train, ...heldOut].flatMap((p) => [p.chosen.length, p.rejected.length]));
    const contextLength = Math.min(PRESETS[name].contextLength, Math.max(8, longest));
    config = preset(name, { vocabSize: tok.vocabSize, contextLength });
    const rng = new Rng(seed);
    params = initParams(paramLayout(config), () => rng.normal());
    initFrom = `fresh ${name} init (seed ${seed})`;
    if (o.preset === undefined)
      log(`WARNING: no SFT checkpoint at ${initPath}; training the reward model from a ${initFrom}`);
  }
  log(
    `train-rm ${task}: ${train.length} train / ${heldOut.length} held-out pairs from ${dataPath}; init ${initFrom} ` +
      `(${paramLayout(config).count} parameters, context ${config.contextLength}); ${steps} steps × ${B} pairs, lr ${lr}`,
  );

  const ctx = await acquireGpu();
  const w = new GptWeights(ctx, config, params);
  const scorer = new RewardModelScorer(ctx, w, tok.padId);
  const backend = o.backend ?? "tfjs-wasm";
  const trainer =
    backend === "wgsl"
      ? new RewardModelTrainer(ctx, w, tok.padId)
      : await TfRewardModelTrainer.create((await tfjsWasm()).tf, config, params, tok.padId);
  log(`training and scoring on ${backend === "wgsl" ? `wgsl (${ctx.adapter.name})` : "TF.js WASM"}`);
  // Scores come from where the weights train: the TF.js twin or the WGSL engine (the ONNX check uses WGSL).
  const score = (seqs: readonly (readonly number[])[]) =>
    trainer instanceof TfRewardModelTrainer ? trainer.score(seqs) : scorer.score(seqs);
  const fmt = (a: PairAccuracy) =>
    `label acc ${a.labelAccuracy.toFixed(3)}, gold acc ${a.goldAccuracy.toFixed(3)} (${a.goldPairs} non-tied of ${a.pairs})`;
  const before = { eval: await pairAccuracy(heldOut, score) };
  log(`before: held-out ${fmt(before.eval)}`);

  const rng = new Rng(seed + 1);
  let order: EncodedPair[] = [];
  let finalLoss = Number.NaN;
  let running = { loss: 0, acc: 0, n: 0 };
  for (let s = 0; s < steps; s++) {
    if (order.length < B) order = [...order, ...shuffle(train, rng)];
    const batch = order.splice(0, B);
    const m = await trainer.step(batch, { lr: rmLr(lr, s, steps), centerRewardsCoefficient: center });
    finalLoss = m.loss;
    running = { loss: running.loss + m.loss, acc: running.acc + m.accuracy, n: running.n + 1 };
    if (o.logEvery !== 0 && ((s + 1) % (o.logEvery ?? 10) === 0 || s + 1 === steps)) {
      const secs = (performance.now() - t0) / 1000;
      log(
        `step ${s + 1}/${steps}: loss ${(running.loss / running.n).toFixed(4)}, batch acc ` +
          `${(running.acc / running.n).toFixed(3)}, grad norm ${m.gradNorm.toFixed(3)}, ${secs.toFixed(0)} s`,
      );
      running = { loss: 0, acc: 0, n: 0 };
    }
  }
  const trainSample = shuffle(train, new Rng(seed + 2)).slice(0, o.trainEvalPairs ?? TRAIN_EVAL_PAIRS);
  const after = { eval: await pairAccuracy(heldOut, score), train: await pairAccuracy(trainSample, score) };
  log(`after: held-out ${fmt(after.eval)}; train sample ${fmt(after.train)}`);
  if (trainer instanceof TfRewardModelTrainer) {
    w.upload(await trainer.params());
    trainer.dispose();
  } else trainer.destroy();

  const trained = await w.download();
  const seconds = (performance.now() - t0) / 1000;
  const info = {
    task,
    kind: "reward-model",
    init: initFrom,
    steps: String(steps),
    seed: String(seed),
    final_loss: finalLoss.toFixed(4),
    eval_gold_accuracy: after.eval.goldAccuracy.toFixed(4),
    eval_label_accuracy: after.eval.labelAccuracy.toFixed(4),
  };
  mkdirSync(out, { recursive: true });
  rmSync(`${out}/${FACTS_FILE}`, { force: true }); // a stale one must not describe these files
  const rmPath = `${out}/rm.safetensors`;
  const onnxPath = `${out}/rm.onnx`;
  const ck: Checkpoint = { config, params: trained, tokenizer, info };
  writeFileSync(rmPath, saveCheckpoint(ck));
  const onnxBytes = exportRewardModelOnnx(config, trained, { tokenizer, metadata: info });
  writeFileSync(onnxPath, onnxBytes);

  // The export must reproduce the engine's scores.
  const model = await loadOnnxRewardModel(onnxBytes, tok.vocabSize, { padId: tok.padId });
  const check = heldOut.slice(0, 16).flatMap((p) => [p.chosen, p.rejected]);
  const samples = check.map((s) => ({ prompt: [tok.bosId], completion: s.slice(1) }));
  const viaOrt = await onnxReward(model, tok).score(samples);
  const viaWgsl = await scorer.score(check);
  const onnxMaxDiff = Math.max(...viaOrt.map((v, i) => Math.abs(v - viaWgsl[i])));
  await model.release();
  scorer.destroy();
  w.destroy();
  ctx.destroy();
  log(
    `wrote ${rmPath} and ${onnxPath} (${onnxBytes.length} bytes); ONNX vs WGSL max |diff| ${onnxMaxDiff.toExponential(2)}`,
  );
  if (!(onnxMaxDiff <= ONNX_TOL))
    throw new Error(`ONNX scores differ from WGSL by ${onnxMaxDiff} > ${ONNX_TOL}`);

  const total = (performance.now() - t0) / 1000;
  // The command that makes these files again: the resolved settings (defaults may change), the inputs only when
  // not the shipped ones (--ship checks that a run's inputs are the shipped ones, then leaves them out).
  const flags = commandFlags({
    steps,
    batch: B,
    lr,
    seed: o.seed,
    center: o.center,
    "train-eval-pairs": o.trainEvalPairs,
    backend,
    eos,
  });
  const inputFlags = commandFlags({ data: o.data, init: o.init, preset: o.preset });
  {
    const facts = {
      code_revision: revision,
      config,
      tokenizer,
      init: initFrom.replace(/^public\//, ""),
      ...(fromCheckpoint ? { init_sha256: sha256(initPath) } : {}),
      data: dataPath.replace(/^public\//, ""),
      data_sha256: sha256(dataPath),
      steps,
      batch_pairs: B,
      lr,
      center_rewards_coefficient: center,
      seed,
      backend,
      eos,
      final_loss: Number(finalLoss.toFixed(4)),
      eval_before: before.eval,
      eval_after: after.eval,
      train_sample_after: after.train,
      onnx_max_abs_diff_vs_wgsl: onnxMaxDiff,
      train_time_s: Math.round(seconds),
      run_time_s: Math.round(total),
      command: `npm run train-rm -- --task ${task}${flags}`,
    };
    if (out === dir) recordRewardModel(task, { ...facts, command: facts.command + inputFlags });
    else
      writeFileSync(
        `${out}/${FACTS_FILE}`,
        `${JSON.stringify({ ...facts, rm_sha256: sha256(rmPath), onnx_sha256: sha256(onnxPath), input_flags: inputFlags }, null, 2)}\n`,
      );
  }
  return { rmPath, onnxPath, initFrom, before, after, finalLoss, onnxMaxDiff, seconds: total };
}

async function main(): Promise<number> {
  const { values } = scriptArgs(USAGE, {
    options: {
      task: { type: "string" },
      steps: { type: "string" },
      seed: { type: "string" },
      batch: { type: "string" },
      lr: { type: "string" },
      center: { type: "string" },
      data: { type: "string" },
      init: { type: "string" },
      preset: { type: "string" },
      out: { type: "string" },
      "log-every": { type: "string" },
      "train-eval-pairs": { type: "string" },
      backend: { type: "string" },
      eos: { type: "string" },
      ship: { type: "string" },
    },
  });
  if (values.task !== "sentiment" && values.task !== "arithmetic") {
    console.error(taskProblem(values.task));
    return 2;
  }
  const task = values.task;
  if (values.ship !== undefined) {
    console.log(shipRewardModel(task, values.ship));
    return 0;
  }
  if (values.backend !== undefined && values.backend !== "tfjs-wasm" && values.backend !== "wgsl") {
    console.error("--backend tfjs-wasm|wgsl");
    return 2;
  }
  if (values.eos !== undefined && values.eos !== "ended" && values.eos !== "always") {
    console.error("--eos ended|always");
    return 2;
  }
  // Numbers and the output folder are checked before any work (a bad --steps once trained nothing and
  // overwrote the shipped model, the default --out).
  const numbers = checkedInput(() => {
    const whole = (k: keyof typeof values, min = 0) =>
      values[k] === undefined ? undefined : wholeNumber(k, String(values[k]), 0, min);
    const real = (k: keyof typeof values, min: number, max: number) =>
      values[k] === undefined ? undefined : realNumber(k, String(values[k]), 0, min, max);
    const problem = inputProblem(task, values);
    if (problem) throw new RangeError(problem);
    writableFolder("out", values.out ?? `public/models/${values.task}`);
    return {
      steps: whole("steps", 1),
      seed: whole("seed"),
      batch: whole("batch", 1),
      lr: real("lr", 0, 1),
      center: real("center", 0, 1e6),
      logEvery: whole("log-every", 1),
      trainEvalPairs: whole("train-eval-pairs"),
    };
  });
  const r = await trainRewardModel({
    task,
    ...numbers,
    data: values.data,
    init: values.init,
    preset: values.preset as PresetName | undefined,
    out: values.out,
    backend: values.backend as RmBackend | undefined,
    eos: values.eos as RmEos | undefined,
  });
  console.log(
    `done in ${r.seconds.toFixed(0)} s: held-out gold accuracy ${r.after.eval.goldAccuracy.toFixed(3)}`,
  );
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(await main());
