/** What a checkpoint says it was trained from (src/lab/saved_origin.ts): when the proxy reward model counts. */
import { describe, expect, it } from "vitest";
import type { StartModel } from "../../src/lab/resources";
import type { RewardModelInfo } from "../../src/lab/reward_sources";
import { originInfo, proxyReplaced, REWARD_DIGEST_KEY, START_DIGEST_KEY } from "../../src/lab/saved_origin";
import type { Checkpoint } from "../../src/model/checkpoint";
import { preset } from "../../src/model/config";
import { weightsDigest } from "../../src/util/digest";

const start: StartModel = {
  config: preset("nano", { vocabSize: 16 }),
  params: new Float32Array([0.5, -1, 2]),
  source: "nano (random init, seed 0)",
  tokenizerRef: "models/arithmetic/tokenizer.json",
};
const proxy: RewardModelInfo = {
  name: "models/arithmetic/rm.onnx",
  vocabSize: 16,
  maxLength: 16,
  warnings: [],
  sha256: "e82316e5".padEnd(64, "0"),
};
const ck = (info: Record<string, string>) => ({ info }) as unknown as Checkpoint;

describe("saved origin", () => {
  it("names the start model and its weights; the proxy's file only for a run that trained on it", () => {
    expect(originInfo(start, "gold", proxy)).toEqual({
      start: "nano (random init, seed 0)",
      [START_DIGEST_KEY]: weightsDigest(start.params),
    });
    expect(originInfo(start, "proxy", proxy)[REWARD_DIGEST_KEY]).toBe(proxy.sha256);
    // Not loaded yet (a run switched to the proxy that has not stepped on it): nothing to name.
    expect(originInfo(start, "proxy", null)[REWARD_DIGEST_KEY]).toBeUndefined();
    // SHA-256 of the three floats' little-endian bytes (00 00 00 3f 00 00 80 bf 00 00 00 40).
    expect(weightsDigest(start.params)).toBe(
      "0846fa44e8b51361c65aa5220fb9a8e2c033649ec1638f2b9b02fb0dd4c0bfb0",
    ); // Python's hashlib
    expect(weightsDigest(new Float32Array([0.5, -1, 2]))).toBe(weightsDigest(start.params));
    expect(weightsDigest(new Float32Array([0.5, -1, 2.0000002]))).not.toBe(weightsDigest(start.params));
  });

  it("a replaced proxy only when the run trained on it, optimises it now, and the files differ", () => {
    const older = { [REWARD_DIGEST_KEY]: "ebac38da".padEnd(64, "1") };
    expect(proxyReplaced(ck(older), "proxy", "proxy", proxy)).toEqual({
      path: "models/arithmetic/rm.onnx",
      from: "ebac38da",
      to: "e82316e5",
    });
    expect(proxyReplaced(ck(older), "gold", "proxy", proxy)).toBeNull();
    expect(proxyReplaced(ck(older), "proxy", "gold", proxy)).toBeNull();
    expect(proxyReplaced(ck({ [REWARD_DIGEST_KEY]: proxy.sha256 }), "proxy", "proxy", proxy)).toBeNull();
    // Saved before files were named (older versions of the lab): nothing to compare.
    expect(proxyReplaced(ck({}), "proxy", "proxy", proxy)).toBeNull();
  });
});
