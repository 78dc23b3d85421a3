/**
 * The TRL script of a Safe RLHF run with the sentiment task's positive-words cost: its Python `cost()` and
 * `afinn_sum()` give the lab's numbers (src/tasks/sentiment: POSITIVE_WORDS, afinnSum) on texts that exercise
 * phrases, hyphens, possessives and curly quotes; its limit line names the unit. Its `reward_fn` prices each batch
 * with the λ the lab would use (the integral plus K_P times the batch's excess cost).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lagrangeMultiplierUpdate, pidLagrangeMultiplier } from "../../src/algorithms/math/safe_rlhf";
import { trlScript } from "../../src/lab/export/trl_script";
import type { ExperimentSpec } from "../../src/lab/protocol";
import { POSITIVE_WORDS } from "../../src/tasks/sentiment";
import { afinnSum } from "../../src/tasks/sentiment/afinn";
import { python3 } from "../helpers/python";

const python = python3();

const TEXTS = [
  "",
  "I love this happy day, not bad",
  "Good, good, GOOD!",
  "a well-loved, warm-hearted captain's smile",
  "it does not work, and the whale’s grace is no joke",
  "terrible awful sad",
  "the sea",
];

const experiment: ExperimentSpec = {
  task: "sentiment",
  model: "sft",
  seed: 0,
  runs: [
    { id: "safe-1", algo: "safe_rlhf", label: "Safe", config: { cost: "positive_words", costLimit: 1 } },
  ],
};

describe("Safe RLHF's TRL script with the positive-words cost", () => {
  const script = trlScript(experiment, { spec: experiment.runs[0], step: 0 });

  it("states the limit in the cost's unit and defines cost() from the lexicon hits", () => {
    expect(script).toContain("COST_LIMIT = 1  # d: the average cost (positive AFINN words per completion)");
    expect(script).toContain("return sum(1 for v in afinn_hits(completion) if v > 0)");
  });

  it.skipIf(!python)("its cost() and afinn_sum() match the lab's on the same texts", () => {
    // The script up to its first use of TRL: the lexicon, afinn_hits/afinn_sum and cost().
    const from = script.indexOf("AFINN = ");
    const to = script.indexOf("def reward_fn(");
    expect(from).toBeGreaterThan(0);
    expect(to).toBeGreaterThan(from);
    const body = script.slice(from, to);
    const costDef = body.indexOf("def cost(");
    expect(costDef, "cost() after the lexicon").toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), "trl-cost-"));
    const file = join(dir, "cost.py");
    writeFileSync(
      file,
      `import json, math, re, sys\n${body}\n` +
        "texts = json.load(sys.stdin)\n" +
        "print(json.dumps([[cost(t, []), afinn_sum(t)] for t in texts]))\n",
    );
    const out = JSON.parse(
      execFileSync(python!, [file], { input: JSON.stringify(TEXTS) }).toString(),
    ) as number[][];
    const lab = TEXTS.map((t) => [POSITIVE_WORDS.cost("", t), afinnSum(t)]);
    console.log(
      `positive words / AFINN sum, Python vs lab: ${JSON.stringify(out)} vs ${JSON.stringify(lab)}`,
    );
    expect(out).toEqual(lab);
    expect(lab.some(([c]) => c >= 3)).toBe(true);
  });
});

describe("Safe RLHF's TRL reward_fn", () => {
  const lengthRun: ExperimentSpec = {
    ...experiment,
    runs: [
      {
        id: "safe-1",
        algo: "safe_rlhf",
        label: "Safe",
        config: { cost: "length", costLimit: 3, lambdaInit: 0.2, lambdaLr: 0.1, lambdaKp: 0.5 },
      },
    ],
  };
  const script = trlScript(lengthRun, { spec: lengthRun.runs[0], step: 0 });

  it.skipIf(!python)(
    "prices each batch with the lab's λ (integral plus K_P times the batch's excess)",
    () => {
      const from = script.indexOf("COST_LIMIT = ");
      const to = script.indexOf("dataset = Dataset.from_dict");
      expect(from).toBeGreaterThan(0);
      expect(to).toBeGreaterThan(from);
      const batches = [
        [5, 6],
        [4, 4],
        [1, 2],
        [1, 1],
        [3, 9],
      ]; // completion lengths in tokens
      const dir = mkdtempSync(join(tmpdir(), "trl-lambda-"));
      const file = join(dir, "lambda.py");
      writeFileSync(
        file,
        `import json, sys\ndef score(p, c):\n    return 0.0\n${script.slice(from, to)}\n` +
          "used = []\nfor lengths in json.load(sys.stdin):\n" +
          "    r = reward_fn(['p'] * len(lengths), ['c'] * len(lengths), [[0] * n for n in lengths])\n" +
          "    used.append(-r[0] / lengths[0])\n" +
          "print(json.dumps(used))\n",
      );
      const py = JSON.parse(
        execFileSync(python!, [file], { input: JSON.stringify(batches) }).toString(),
      ) as number[];
      let integral = 0.2;
      const lab = batches.map((lengths) => {
        const used = pidLagrangeMultiplier(integral, (lengths[0] + lengths[1]) / 2 - 3, 0.5);
        integral = lagrangeMultiplierUpdate(integral, lengths, 3, 0.1);
        return used;
      });
      console.log(
        `λ per batch, Python vs lab: ${py.map((l) => l.toFixed(4))} vs ${lab.map((l) => l.toFixed(4))}`,
      );
      expect(py).toHaveLength(lab.length);
      for (let i = 0; i < lab.length; i++) expect(py[i]).toBeCloseTo(lab[i], 12);
      expect(lab.some((l) => l === 0)).toBe(true); // the projection onto λ ≥ 0 is exercised
    },
  );
});
