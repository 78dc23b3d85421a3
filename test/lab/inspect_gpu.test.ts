/**
 * The inspectors on the worker's real runs (WebGPU on Dawn; SwiftShader without a GPU), test experiment:
 * every run's update carries its inspector data, and the numbers agree with what the step computed on the GPU —
 * PPO's ratios from the last epoch line up with log π_old token for token (ρ = 1 on the first minibatch of a
 * single epoch; the second minibatch's rows already see the first one's update) and its r_t, V_t, δ_t, A_t rebuild
 * the whitened Â the update used, GRPO's highlighted scaling is the advantage the update used, DPO's margins and losses average
 * to the dpo_loss kernel's rewards/margins and loss.
 */
import { describe, expect, it } from "vitest";
import { testExperiment } from "../../src/lab/defaults";
import { inspectView } from "../../src/lab/inspect/build";
import { tokenText } from "../../src/lab/inspect/text";
import type { LabRun } from "../../src/lab/runs";
import { setup } from "../helpers/lab_runtime";

describe("inspectors on GPU runs", () => {
  it("send tokens/groups/pairs views whose numbers match the step's own", async () => {
    const base = testExperiment();
    // PPO with 2 minibatches of 1 row and one epoch: each row's ratio comes from its own minibatch's update.
    const spec = {
      ...base,
      runs: base.runs.map((r) =>
        r.algo === "ppo" ? { ...r, config: { ...r.config, numMiniBatches: 2 } } : r,
      ),
    };
    const { res, runs, s, updates } = await setup(spec);
    await s.stepOnce();
    s.flush();
    const kinds = Object.fromEntries(
      spec.runs.map((r) => [r.id, updates.filter((u) => u.runId === r.id).at(-1)?.inspect?.kind]),
    );
    expect(kinds).toEqual({ "ppo-1": "tokens", "dpo-1": "pairs", "grpo-1": "groups" });

    const text = tokenText(res.tokenizer);
    const stepOf = async (id: string) => {
      const run = s.runOf(id) as LabRun;
      const r = await run.run.step();
      return { r, v: inspectView(run.run.algo, { ...run.run.config }, r, text) };
    };

    const ppo = await stepOf("ppo-1");
    expect(ppo.v.kind).toBe("tokens");
    if (ppo.v.kind !== "tokens") return;
    const rows = ppo.v.completions.flatMap((c) => c.tokens);
    expect(rows.length).toBe(ppo.r.rollout?.tokens);
    expect(ppo.v.completions).toHaveLength(2);
    for (const t of rows)
      expect(t.ratio > 0 && Number.isFinite(t.advantage) && Number.isFinite(t.kl), JSON.stringify(t)).toBe(
        true,
      );
    const offBy = ppo.v.completions.map((c) => Math.max(...c.tokens.map((t) => Math.abs(t.ratio - 1))));
    expect(Math.min(...offBy), `max |ρ − 1| per completion: ${offBy}`).toBeLessThan(1e-6);
    const S = ppo.r.rollout?.seq.S ?? 0;
    expect(ppo.v.completions[1].tokens[0].advantage).toBe(ppo.r.advantages?.[S]);
    // How Â was made, from the view alone: r_t = −β·k_t (+ R last), δ_t = r_t + γV_{t+1} − V_t,
    // A_t = δ_t + γλA_{t+1}, Â = (A − μ)/σ; the values V_t are the value head's, not zeros.
    const g = ppo.v.gae;
    expect(g && g.whiten !== null && g.tokens === ppo.r.rollout?.tokens).toBe(true);
    if (!g?.whiten) return;
    for (const c of ppo.v.completions) {
      const n = c.tokens.length;
      for (let t = n - 1; t >= 0; t--) {
        const p = c.tokens[t].gae;
        const next = c.tokens[t + 1]?.gae;
        if (!p) throw new Error("a PPO token without its GAE pieces");
        expect(p.reward).toBeCloseTo(-g.beta * c.tokens[t].kl + (t === n - 1 ? c.reward : 0), 10);
        expect(p.delta).toBeCloseTo(p.reward + g.gamma * (next?.value ?? 0) - p.value, 10);
        expect(p.adv).toBeCloseTo(p.delta + g.gamma * g.lam * (next?.adv ?? 0), 10);
        expect(c.tokens[t].advantage).toBeCloseTo((p.adv - g.whiten.mean) / g.whiten.scale, 10);
        expect(p.ret).toBeCloseTo(p.adv + p.value, 10);
      }
    }
    expect(
      rows.some((t) => Math.abs(t.gae?.value ?? 0) > 1e-6),
      "V_t from the value head",
    ).toBe(true);

    const grpo = await stepOf("grpo-1");
    expect(grpo.v.kind).toBe("groups");
    if (grpo.v.kind !== "groups") return;
    expect(grpo.v.scaleRewards).toBe("group");
    const used = grpo.v.groups.flatMap((g) => g.rows.map((row) => row.byScale?.group));
    grpo.r.rollout?.completions.forEach((c, b) => {
      if (c.length)
        expect(used[b]).toBeCloseTo(grpo.r.advantages?.[b * (grpo.r.rollout?.seq.S ?? 0)] ?? Number.NaN, 12);
    });

    const dpo = await stepOf("dpo-1");
    expect(dpo.v.kind).toBe("pairs");
    if (dpo.v.kind !== "pairs") return;
    const mean = (x: number[]) => x.reduce((a, v) => a + v, 0) / x.length;
    expect(dpo.v.pairs).toHaveLength(2);
    expect(mean(dpo.v.pairs.map((p) => p.margin))).toBeCloseTo(dpo.r.metrics["rewards/margins"], 4);
    expect(mean(dpo.v.pairs.map((p) => p.loss))).toBeCloseTo(dpo.r.metrics.loss, 4);
    expect(mean(dpo.v.pairs.map((p) => p.chosen.reward))).toBeCloseTo(dpo.r.metrics["rewards/chosen"], 4);
    s.dispose();
    runs.destroy();
  });
});
