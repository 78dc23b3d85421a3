import { describe, expect, it } from "vitest";
import { BestOfNRun } from "../../src/algorithms/best_of_n";
import { sampleViews } from "../../src/lab/samples";
import { nanoEnv } from "../helpers/nano_env";

describe("best-of-n", () => {
  it("beats the average sample and stays within the KL bound, without training", async () => {
    const env = await nanoEnv(4, false);
    const before = await env.policy.download();
    const run = new BestOfNRun(env, { batchPrompts: 8, n: 8, maxNewTokens: 8 });
    const out = await run.step();
    const m = out.metrics;
    console.log(
      `BoN n=8: best ${m.reward.toFixed(3)} vs all ${m["reward/all_samples"].toFixed(3)}; KL ${m["objective/kl"].toFixed(3)} ≤ bound ${m["objective/kl_bound"].toFixed(3)}`,
    );
    expect(m.reward).toBeGreaterThan(m["reward/all_samples"]);
    expect(m["objective/kl_bound"]).toBeCloseTo(Math.log(8) - 7 / 8, 12);
    expect(m["objective/kl"]).toBeLessThanOrEqual(m["objective/kl_bound"] + 1e-12);
    // The same KL under the k-estimators the KL chart offers (it samples from π_ref: no token estimator applies);
    // no exact KL: its estimate is not one (before: logged as objective/kl_exact too).
    for (const k of ["objective/kl_k2", "objective/kl_k3"]) expect(m[k]).toBe(m["objective/kl"]);
    expect(m["objective/kl_exact"]).toBeUndefined();
    // The samples panel shows each prompt's pick (the best of its n), not the first n samples of prompt 1.
    const r = out.rollout;
    if (!r) throw new Error("best-of-n returns its rollout");
    expect(out.shownRows).toHaveLength(8);
    out.shownRows?.forEach((row, p) => {
      expect(Math.floor(row / 8)).toBe(p);
      const group = Array.from(r.reward.subarray(8 * p, 8 * p + 8));
      expect(r.reward[row]).toBe(Math.max(...group));
    });
    const tok = {
      bosId: -1,
      idToToken: (id: number) => `t${id}`,
      decode: (ids: readonly number[]) => ids.join(" "),
    } as unknown as Parameters<typeof sampleViews>[1];
    const shown = sampleViews(r, tok, undefined, undefined, 8, out.shownRows);
    expect(shown.map((v) => v.reward)).toEqual(out.shownRows?.map((row) => r.reward[row]));
    expect(shown.reduce((a, v) => a + v.reward, 0) / 8).toBeCloseTo(m.reward, 12);
    expect(await env.policy.download()).toEqual(before);
    run.destroy();
  });
});
