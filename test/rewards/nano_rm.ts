/** A nano reward model with weights large enough that every block and the reward head matter numerically. */
import { type GPTConfig, preset } from "../../src/model/config";
import { initParams, paramLayout, spec } from "../../src/model/params";
import { Rng } from "../../src/util/rng";

/** `headScale` multiplies the reward head's weights (default 10: scores of O(1–10)). */
export function nanoRm(
  seed: number,
  vocabSize = 37,
  headScale = 10,
): { config: GPTConfig; params: Float32Array } {
  const config = preset("nano", { vocabSize });
  const layout = paramLayout(config);
  const rng = new Rng(seed);
  const params = initParams(layout, () => rng.normal()).map((v) => v * 3);
  const head = spec(layout, "reward_head.weight");
  for (let i = 0; i < config.nEmbd; i++) params[head.offset + i] *= headScale;
  params[spec(layout, "reward_head.bias").offset] = 0.25;
  return { config, params };
}

/** n random sequences of lengths in [minLen, maxLen] with ids in [1, V) (0 is the pad id in these tests). */
export function randomSeqs(rng: Rng, n: number, minLen: number, maxLen: number, V: number): number[][] {
  return Array.from({ length: n }, () =>
    Array.from({ length: rng.int(minLen, maxLen) }, () => rng.int(1, V - 1)),
  );
}
