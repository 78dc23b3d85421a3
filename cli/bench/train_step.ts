/**
 * A full train step (forward + cross-entropy + backward + optimizer) of one model on one batch, in tokens/s:
 * ours (SftTrainer: WGSL kernels, AdamW) vs the TF.js twin (cli/bench/tfjs-gpt.ts: TF.js ops on the active
 * backend — WebGPU on our device in `npm run bench` —, autodiff, TF.js Adam). Same config, same initial
 * weights, same batch. Both steps end by reading the loss back, which is the sync point of the wall clock.
 * Work is not quite identical: ours also computes the global gradient norm (clipping off here) and TF.js's Adam
 * has no weight decay (ours is set to 0).
 */
import type { GpuContext } from "../../src/gpu/context";
import { leftPadBatch } from "../../src/model/batch";
import { type PresetName, preset } from "../../src/model/config";
import { initParams, paramLayout } from "../../src/model/params";
import { nextTokenTargets, SftTrainer } from "../../src/model/sft";
import { GptWeights } from "../../src/model/weights";
import { Rng } from "../../src/util/rng";
import { disposeTfGpt, TfAdamTrainer, tfGptFromFlat } from "./tfjs-gpt";
import type { Tf } from "./tfjs-peer";

export interface TrainStepRow {
  model: PresetName;
  B: number;
  T: number;
  /** Timed steps per side (after one warm-up step). */
  steps: number;
  /** Wall-clock ms per step. */
  ms: { ours: number; tfjs: number };
  /** B·T token slots per second. */
  tokensPerS: { ours: number; tfjs: number };
  /** ours / TF.js tokens/s (> 1: ours is faster). */
  ratio: number;
  /** Loss of the first and last timed step per side (a sanity check that both train). */
  loss: { ours: [number, number]; tfjs: [number, number] };
}

/** Learning rate of both optimizers (β1 0.9, β2 0.95, eps 1e-8 on both sides). */
const LR = 1e-3;

async function timeSteps(
  step: () => Promise<number>,
  steps: number,
): Promise<{ ms: number; losses: number[] }> {
  await step(); // warm-up: pipeline compilation, buffer allocation
  const losses: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) losses.push(await step());
  return { ms: (performance.now() - t0) / steps, losses };
}

/**
 * Time `steps` train steps of `model` on a B×T batch of random full-length sequences (every slot a token;
 * next-token targets on all but each row's last slot).
 */
export async function benchTrainStep(
  ctx: GpuContext,
  tf: Tf,
  o: { model: PresetName; B: number; T: number; steps: number },
): Promise<TrainStepRow> {
  const config = preset(o.model);
  const rng = new Rng(0);
  const init = initParams(paramLayout(config), () => rng.normal());
  const seqs = Array.from({ length: o.B }, () =>
    Array.from({ length: o.T }, () => rng.int(0, config.vocabSize - 1)),
  );
  const batch = leftPadBatch(seqs, o.T, 0);
  const targets = nextTokenTargets(batch);

  const w = new GptWeights(ctx, config, init);
  const trainer = new SftTrainer(ctx, w, o.B, o.T);
  const ours = await timeSteps(
    async () => (await trainer.step(batch, targets, { lr: LR, weightDecay: 0, maxGradNorm: 0 })).loss,
    o.steps,
  );
  trainer.destroy();
  w.destroy();

  const m = await tfGptFromFlat(tf, config, init);
  const tfTrainer = new TfAdamTrainer(m, { lr: LR });
  const twin = await timeSteps(() => tfTrainer.step(batch, targets), o.steps);
  tfTrainer.dispose();
  disposeTfGpt(m);

  const tokens = o.B * o.T;
  const ends = (l: number[]): [number, number] => [l[0], l[l.length - 1]];
  return {
    model: o.model,
    B: o.B,
    T: o.T,
    steps: o.steps,
    ms: { ours: ours.ms, tfjs: twin.ms },
    tokensPerS: { ours: (tokens * 1000) / ours.ms, tfjs: (tokens * 1000) / twin.ms },
    ratio: twin.ms / ours.ms,
    loss: { ours: ends(ours.losses), tfjs: ends(twin.losses) },
  };
}
