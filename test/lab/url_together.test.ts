/**
 * A link's run settings that are valid one by one but not together (the algorithm's configProblem): PPO with
 * more minibatches than prompts, or its adaptive β from β = 0 or with a horizon ≤ 0.2 × prompts/step. They
 * loaded without a word and the run failed in the worker ("could not start", or a step that trained, then
 * threw "beta must be a finite number > 0"); now the link opens with them at their defaults and says why.
 */
import { compressToEncodedURIComponent } from "lz-string";
import { describe, expect, it } from "vitest";
import { defaultsOf } from "../../src/algorithms/fields";
import {
  ADAPTIVE_BETA_FLOOR,
  controllerBeta,
  PPO_FIELDS,
  ppoConfigProblem,
} from "../../src/algorithms/ppo_fields";
import { specFromHash, URL_VERSION } from "../../src/lab/url";

const hashOf = (config: Record<string, unknown>) =>
  `#s=${compressToEncodedURIComponent(
    JSON.stringify({
      v: URL_VERSION,
      task: "arithmetic",
      model: "nano",
      seed: 0,
      runs: [{ id: "ppo-1", algo: "ppo", label: "PPO", config }],
    }),
  )}`;

describe("a link's settings that do not go together", () => {
  it("go back to their defaults, the others kept, with the reason", () => {
    const mini = specFromHash(hashOf({ numMiniBatches: 16, lr: 3e-4 }));
    expect(mini.spec.runs[0].config).toEqual({ lr: 3e-4 });
    expect(mini.notice).toMatch(
      /ppo\.numMiniBatches \(16\) exceeds batchPrompts \(8\); using the defaults for numMiniBatches/,
    );
    const horizon = specFromHash(hashOf({ adaptiveKl: true, klHorizon: 1, beta: 0.2 }));
    expect(horizon.spec.runs[0].config).toEqual({ beta: 0.2 });
    expect(horizon.notice).toMatch(
      /can take β to 0 in one step .*; using the defaults for adaptiveKl, klHorizon/,
    );
    const zero = specFromHash(hashOf({ adaptiveKl: true, beta: 0 }));
    expect(zero.spec.runs[0].config).toEqual({});
    expect(zero.notice).toMatch(/needs β > 0 to start from/);
    // Settings that go together load as they are.
    const fine = specFromHash(hashOf({ adaptiveKl: true, klHorizon: 2, batchPrompts: 8, numMiniBatches: 8 }));
    expect(fine.spec.runs[0].config).toEqual({ adaptiveKl: true, klHorizon: 2, numMiniBatches: 8 });
    expect(fine.notice ?? "").not.toMatch(/together|exceeds|β/);
  });

  it("the defaults go together, and the controller's β stays above 0 where the check lets it run", () => {
    const d = defaultsOf(PPO_FIELDS) as Parameters<typeof ppoConfigProblem>[0];
    expect(ppoConfigProblem(d)).toBeNull();
    expect(ppoConfigProblem({ ...d, adaptiveKl: true, klHorizon: 1.6 })).not.toBeNull();
    expect(ppoConfigProblem({ ...d, adaptiveKl: true, klHorizon: 1.61 })).toBeNull();
    // 1,000 steps under the target at the tightest horizon allowed (× 0.006 a step): β rounded to 0 within 147
    // steps and the next failed; it stays at the floor now, a valid setting, and grows back once over target.
    let beta = 0.05;
    for (let i = 0; i < 1000; i++) {
      beta = controllerBeta(beta, 0.01, 8, 6, 1.61, 10);
      expect(beta).toBeGreaterThanOrEqual(ADAPTIVE_BETA_FLOOR);
      expect(ppoConfigProblem({ ...d, adaptiveKl: true, klHorizon: 1.61, beta })).toBeNull();
    }
    expect(beta).toBe(ADAPTIVE_BETA_FLOOR);
    expect(controllerBeta(beta, 100, 8, 6, 1.61, 10)).toBeGreaterThan(ADAPTIVE_BETA_FLOOR);
  });
});
