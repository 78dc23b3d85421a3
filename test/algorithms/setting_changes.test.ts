/**
 * A setting changed between steps (a knob turned mid-run) is either refused by setConfig, with a reason, or
 * used by the next step: never accepted and then failing the step (expert iteration's k was accepted and the
 * next step threw "generator holds 4 rows, got 16 prompts"). Settings a field table marks fixed ("shape",
 * "models": Field.fixed) are refused, so the run card's lock (src/ui/lab/knobs.ts lockReason) tells the truth.
 * Every registry algorithm on the nano model (GPU: Dawn, SwiftShader without a GPU), one step per change.
 */
import { describe, expect, it } from "vitest";
import type { Field } from "../../src/algorithms/fields";
import { ALGO_IDS, ALGORITHMS } from "../../src/lab/registry";
import { RUN_KEYS } from "../../src/lab/settings";
import { PREFS, smallConfig } from "../helpers/every_algorithm";
import { NANO_COSTS, nanoEnv } from "../helpers/nano_env";

/** Another valid value for `f` near `v` (the next option, the flip, one more or less, half again). */
function another(f: Field, v: number | string | boolean): number | string | boolean {
  if (f.kind === "bool") return !v;
  if (f.kind === "enum") return f.options[(f.options.indexOf(String(v)) + 1) % f.options.length];
  const x = Number(v);
  if (f.kind === "int") return x + 1 <= f.max ? x + 1 : x - 1;
  const y = x === 0 ? Math.min(f.max, f.min + 0.1 * (Math.min(f.max, 1) - f.min)) : x * 1.5;
  return y <= f.max ? y : x / 1.5;
}

describe("a setting changed mid-run is refused or used", () => {
  for (const id of ALGO_IDS)
    it(`${id}: every field`, async () => {
      const env = { ...(await nanoEnv(5)), costs: NANO_COSTS };
      const run = ALGORITHMS[id].create(env, smallConfig(id), PREFS);
      // The inspector, the notes and the exports look the run up by it (a typo there reads "no inspector").
      expect(run.algo, "a run's algo is its registry id").toBe(id);
      await run.step();
      const used: string[] = [];
      const refused: string[] = [];
      // The lab's own fields (the reward source) never reach the run (src/lab/settings.ts algoConfig).
      for (const f of ALGORITHMS[id].fields.filter((x) => !RUN_KEYS.has(x.key))) {
        const to = another(f, run.config[f.key]);
        const what = `${id}.${f.key} ${run.config[f.key]} → ${to}`;
        try {
          run.setConfig({ [f.key]: to });
        } catch (e) {
          expect(e, what).toBeInstanceOf(RangeError);
          refused.push(`${what} (${(e as Error).message})`);
          continue;
        }
        expect(f.fixed === "shape" || f.fixed === "models", `${what}: a fixed setting was accepted`).toBe(
          false,
        );
        const res = await run.step().catch((e: unknown) => {
          throw new Error(`${what} was accepted, then the step failed: ${(e as Error).message}`);
        });
        expect(res.metrics.reward, what).toSatisfy(Number.isFinite);
        used.push(what);
      }
      run.destroy();
      console.log(`${id}: ${used.length} changes used, refused: ${refused.join("; ") || "none"}`);
      // The fields marked fixed are among the refused ones.
      for (const f of ALGORITHMS[id].fields.filter((x) => x.fixed === "shape" || x.fixed === "models"))
        expect(
          refused.some((r) => r.startsWith(`${id}.${f.key} `)),
          f.key,
        ).toBe(true);
    }, 120_000);
});
