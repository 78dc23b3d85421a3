import { describe, expect, it } from "vitest";
import { COMMON_FIELDS, defaultsOf, type Field, type NumberField } from "../../algorithms/fields";
import { GRPO_FIELDS, type GrpoConfig, grpoClip, upperClip } from "../../algorithms/grpo";
import { PPO_FIELDS } from "../../algorithms/ppo";
import { SAFE_RLHF_FIELDS } from "../../algorithms/safe_rlhf";
import { REWARD_LEARNERS } from "../../lab/algo_ids";
import { startRoom } from "../../lab/experiment_change";
import { ALGO_IDS, ALGORITHMS } from "../../lab/registry";
import type { RunState } from "../lab_store";
import {
  adaptiveBetaNote,
  fieldForTask,
  formatSetting,
  fromSlider,
  hasSlider,
  hintLines,
  lengthNote,
  lockedSummary,
  lockReason,
  logSlider,
  nudge,
  parseNumber,
  rangeText,
  refusedText,
  rewardNote,
  toSlider,
  unusedReason,
  upperClipNote,
} from "./knobs";

const field = (key: string) => PPO_FIELDS.find((f) => f.key === key) as NumberField;

describe("knobs", () => {
  it("says on a preference learner's card that its reward menu only scores the charts", () => {
    const noted = ALGO_IDS.filter((a) => rewardNote(a) !== null);
    expect(noted).toEqual(["dpo", "kto", "orpo"]);
    // None of the algorithms the no-signal hint treats as optimising the reward gets it.
    for (const a of REWARD_LEARNERS) expect(rewardNote(a), a).toBeNull();
    expect(rewardNote("best_of_n")).toBeNull(); // picks its best sample by that reward
    // KTO labelling by a threshold on the run's own reward learns from it.
    expect(rewardNote("kto", { label: "threshold" })).toMatch(/labels this run's samples/);
    expect(rewardNote("kto", { label: "annotator" })).toMatch(/only scores the charted samples/);
  });

  it("a key press nudges a knob to the next value: 1 for ints, the next round value on a log slider, 1 % of a linear one", () => {
    const epochs = field("ppoEpochs");
    expect([nudge(epochs, 4, 1), nudge(epochs, 4, -1), nudge(epochs, 4, 1, true)]).toEqual([
      5,
      3,
      Math.min(14, epochs.max),
    ]);
    expect(nudge(epochs, epochs.min, -1)).toBe(epochs.min); // clamped at the ends
    const lr = field("lr");
    expect(logSlider(lr)).toBe(true);
    const up = nudge(lr, 1e-4, 1);
    const down = nudge(lr, 1e-4, -1);
    expect(up).toBeGreaterThan(1e-4);
    expect(up).toBeLessThan(1.5e-4); // one small log step, not a jump
    expect(down).toBeLessThan(1e-4);
    expect(down).toBeGreaterThan(0.6e-4);
    expect(nudge(lr, 1e-4, 1, true)).toBeGreaterThan(up);
    // Round values, ten a decade (big: half a decade); below the scale's floor a field that allows 0 goes to 0.
    expect([up, down, nudge(lr, 1e-4, 1, true), nudge(lr, 1e-4, -1, true)]).toEqual([
      1.2e-4, 8e-5, 3e-4, 3e-5,
    ]);
    expect([nudge(lr, 3e-4, 1), nudge(lr, 2.5e-4, -1), nudge(lr, 0, 1), nudge(lr, 1e-7, -1)]).toEqual([
      4e-4, 2e-4, 1e-7, 0,
    ]);
    const beta = field("beta");
    expect([
      nudge(beta, 0.05, 1),
      nudge(beta, 0.05, -1),
      nudge(beta, 0.057, 1),
      nudge(beta, 0.057, -1),
    ]).toEqual([0.06, 0.04, 0.06, 0.05]);
    expect([nudge(beta, 8, 1), nudge(beta, 8, 1, true), nudge(beta, 0, 1)]).toEqual([10, 10, 5e-5]);
    // β sits near the bottom of its log slider: a press still changes it (the value rounds to 2 digits).
    for (const v of [0, 0.05, 0.1, 1])
      for (const dir of [1, -1] as const) {
        const n = nudge(beta, v, dir);
        if (!(v === beta.min && dir < 0)) expect(n, `β ${v} ${dir}`).not.toBe(v);
        expect(n).toBeGreaterThanOrEqual(beta.min);
        expect(n).toBeLessThanOrEqual(beta.max);
      }
    const eps = field("epsilon");
    expect(nudge(eps, 0.2, 1)).toBeGreaterThan(0.2);
  });

  it("shape fields lock once a run has started", () => {
    const batch = field("batchPrompts");
    expect(lockReason(batch, false)).toBeNull();
    expect(lockReason(batch, true)).toContain("batch shape");
    expect(lockReason(field("beta"), true)).toBeNull();
    const valueModel = PPO_FIELDS.find((f) => f.key === "valueModel") as Field;
    expect(lockReason(valueModel, false)).toBeNull();
    expect(lockReason(valueModel, true)).toContain("which models the run holds");
  });

  it("a started run's card names its locked settings in one line", () => {
    expect(lockedSummary(PPO_FIELDS, false)).toBeNull();
    expect(lockedSummary([field("beta")], true)).toBeNull();
    const line = lockedSummary(PPO_FIELDS, true) ?? "";
    const locked = PPO_FIELDS.filter((f) => lockReason(f, true) !== null);
    expect(locked.length).toBeGreaterThan(1);
    for (const f of locked) expect(line).toContain(f.label);
    expect(line).toMatch(/^Fixed since the run started: .+ and [^,]+\. .*change them\.$/);
    expect(line).not.toContain(field("beta").label + ",");
    expect(lockedSummary([field("batchPrompts")], true)).toBe(
      `Fixed since the run started: ${field("batchPrompts").label}. Reset, or add a run, to change it.`,
    );
  });

  it("Safe RLHF's λ₀ locks once the run has stepped (λ follows its update rule)", () => {
    const lambda0 = ALGORITHMS.safe_rlhf.fields.find((f) => f.key === "lambdaInit") as Field;
    expect(lockReason(lambda0, false)).toBeNull();
    expect(lockReason(lambda0, true)).toContain("starting value");
  });

  it("PPO with adaptive β notes the β its latest step used; otherwise no note", () => {
    const run = (algo: RunState["spec"]["algo"], config: RunState["spec"]["config"], klCoefs: number[]) =>
      ({
        spec: { id: "r", algo, label: "r", config },
        status: "paused",
        step: klCoefs.length,
        history: klCoefs.map((b, i) => ({ step: i + 1, samples: 8, tokens: 64, metrics: { kl_coef: b } })),
        markers: [],
        samples: [],
        error: null,
      }) satisfies RunState;
    expect(adaptiveBetaNote(run("ppo", { adaptiveKl: true }, [0.05, 0.0612345]))).toBe(
      "adaptive: β = 0.0612345 at step 2",
    );
    // The default horizon moves β by ~1e-5 a step: visible.
    expect(adaptiveBetaNote(run("ppo", { adaptiveKl: true }, [0.2, 0.199984]))).toBe(
      "adaptive: β = 0.199984 at step 2",
    );
    expect(adaptiveBetaNote(run("ppo", { adaptiveKl: true }, []))).toBeNull();
    expect(adaptiveBetaNote(run("ppo", {}, [0.05]))).toBeNull();
    expect(adaptiveBetaNote(run("grpo", { adaptiveKl: true }, [0.05]))).toBeNull();
  });

  it("log sliders round-trip within 2 significant digits and reach the max", () => {
    const lr = COMMON_FIELDS.find((f) => f.key === "lr") as NumberField;
    for (const v of [1e-5, 3e-4, 0.01, 1]) {
      const back = fromSlider(lr, toSlider(lr, v));
      expect(Math.abs(back - v) / v).toBeLessThan(0.05);
    }
    expect(fromSlider(lr, 1000)).toBe(1);
    expect(toSlider(lr, 0)).toBe(0);
  });

  it("linear sliders stay in range and ints stay integers", () => {
    const eps = field("epsilon");
    expect(logSlider(eps)).toBe(false);
    expect(fromSlider(eps, 0)).toBe(eps.min);
    expect(fromSlider(eps, 1000)).toBe(eps.max);
    expect(toSlider(eps, 0.2)).toBe(202);
    const epochs = field("ppoEpochs");
    expect(Number.isInteger(fromSlider(epochs, 517))).toBe(true);
    expect(hasSlider(eps)).toBe(true);
  });

  it("wide ranges get log sliders: β, the KL target and horizon are reachable by dragging, 0 at the far left", () => {
    const beta = field("beta");
    const target = field("klTarget");
    const horizon = field("klHorizon");
    for (const f of [beta, target, horizon, field("vfCoef"), field("maxGradNorm")])
      expect(logSlider(f), f.key).toBe(true);
    // The default sits mid-slider, not in the first 0.5 % (β 0.05 of [0, 10] was at position 5 of 1000).
    for (const f of [beta, target, horizon]) {
      const p = toSlider(f, Number(f.default));
      expect(p, f.key).toBeGreaterThan(300);
      expect(p, f.key).toBeLessThan(900);
      expect(Math.abs(fromSlider(f, p) - Number(f.default)) / Number(f.default), f.key).toBeLessThan(0.05);
    }
    for (const v of [0.01, 0.1, 1])
      expect(Math.abs(fromSlider(beta, toSlider(beta, v)) - v) / v).toBeLessThan(0.05);
    expect(fromSlider(beta, 0)).toBe(0); // β = 0 is a position, not 1e-7
    expect(toSlider(beta, 0)).toBe(0);
    expect(toSlider(beta, 1e-9)).toBe(1); // a tiny positive β is not drawn as 0
    expect(fromSlider(beta, 1000)).toBe(beta.max);
    expect(fromSlider(target, 0)).toBe(target.min); // min > 0: the scale starts at the min
    // Each default is exactly where its slider rests (no 9900 for a horizon of 10000), and the travel starts
    // at a thousandth of the default, not at 1e-7 (d = 3e-6 tokens was a slider value).
    const d = SAFE_RLHF_FIELDS.find((f) => f.key === "costLimit") as NumberField;
    for (const f of [beta, target, horizon, d])
      expect(fromSlider(f, toSlider(f, Number(f.default))), f.key).toBe(Number(f.default));
    expect(fromSlider(d, 1)).toBeGreaterThanOrEqual(0.008);
    expect(fromSlider(beta, 1)).toBeGreaterThanOrEqual(5e-5);
    expect(rangeText(target)).toBe("[0.001, 1,000] nats (log scale)");
    expect(rangeText(field("epsilon"))).toBe("[0, 0.99]");
  });

  it("a refused value's message names what was typed and the value kept (the field shows the latter)", () => {
    const beta = field("beta");
    const why = parseNumber(beta, " -5 ") as string;
    expect(refusedText(beta, " -5 ", why, 0.05)).toBe(
      "β must be in [0, 10]: “-5” not applied, β stays 0.05.",
    );
    expect(refusedText(field("lr"), "", "lr must be a number", 3e-5)).toBe(
      "lr must be a number; lr stays 3e-5.",
    );
  });

  it("parses typed numbers with range errors", () => {
    const beta = field("beta");
    expect(parseNumber(beta, "0.1")).toBe(0.1);
    expect(parseNumber(beta, "abc")).toMatch(/must be a number/);
    expect(parseNumber(beta, "99")).toMatch(/must be in \[0, 10\]/);
    expect(parseNumber(field("ppoEpochs"), "1.5")).toMatch(/integer/);
    // Decimal notation only, and the range without the slider's "(log scale)".
    expect(parseNumber(beta, "3e-4")).toBe(3e-4);
    expect(parseNumber(beta, ".5")).toBe(0.5);
    expect(parseNumber(beta, "0x10")).toBe("β must be a number");
    expect(parseNumber(beta, "")).toBe("β must be a number");
    expect(parseNumber(beta, "0,1")).toBe("β must be a number: write decimals with a point (0.1)");
    expect(parseNumber(beta, "1,024")).toBe(
      "β must be a number without separators: 1024, or 1.024 with a decimal point",
    );
    // A German thousands point in a whole-number field ("1.000" read as 1 ended a Stop at after step 1).
    const epochs = field("ppoEpochs");
    expect(parseNumber(epochs, "1.000")).toBe("epochs must be a whole number without separators: 1000");
    expect(parseNumber(epochs, "1,000")).toBe("epochs must be a whole number without separators: 1000");
    expect(parseNumber(epochs, "1.000.000")).toBe(
      "epochs must be a whole number without separators: 1000000",
    );
    expect(parseNumber(epochs, "2.0")).toBe(2); // not groups of three: a decimal, as typed
    expect(parseNumber(beta, "1.000")).toBe(1); // a decimal field below 1,000 reads it as the decimal
    // A decimal field that takes thousands (PPO's horizon, 10,000 by default): both readings said.
    expect(parseNumber(field("klHorizon"), "10.000")).toBe(
      "horizon must be a number without separators: 10000, or 10 with a decimal point",
    );
    expect(parseNumber(field("klHorizon"), "10.5")).toBe(10.5);
    expect(parseNumber(field("klHorizon"), "1.000.000")).toBe(
      "horizon must be a number without separators: 1000000",
    );
    expect(parseNumber(beta, "11")).toBe("β must be in [0, 10]");
    expect(parseNumber(field("maxNewTokens"), "9999")).toBe("max tokens must be in [1, 256] tokens");
    // Beyond a double: too large is out of range, too small is not silently 0.
    expect(parseNumber(beta, "1e400")).toBe("β must be in [0, 10]");
    expect(parseNumber(beta, "-1e400")).toBe("β must be in [0, 10]");
    expect(parseNumber(field("lr"), "1e-400")).toBe(
      "lr 1e-400 is too small to be told from 0 (type 0 if 0 is meant)",
    );
    expect([parseNumber(beta, "0e5"), parseNumber(beta, "0.000"), parseNumber(beta, "-0")]).toEqual([
      0, 0, 0,
    ]);
  });

  it("tooltips carry doc, range, default, source and TRL's name", () => {
    const lines = hintLines(field("beta"));
    const text = lines.map((l) => `${l.label} ${l.text}`).join("\n");
    expect(text).toContain("KL penalty");
    expect(text).toContain("Range [0, 10]");
    expect(text).toContain("Default 0.05");
    expect(text).toContain("Ziegler");
    expect(text).toContain("TRL kl_coef");
    expect(formatSetting(field("maxNewTokens"), 24)).toBe("24 tokens");
  });

  it("writes learning rates as the papers do, 1e-4 beside 3e-5 (not 0.0001)", () => {
    const lr = field("lr");
    expect([1e-4, 3e-5, 2.5e-4, 1.23456e-5, 0.001, 0.04].map((v) => formatSetting(lr, v))).toEqual([
      "1e-4",
      "3e-5",
      "2.5e-4",
      "1.23e-5",
      "0.001",
      "0.04",
    ]);
  });
});

describe("GRPO's ε_high at 0", () => {
  it("follows ε in the loss, and its knob says which value it uses", () => {
    expect(upperClip({ epsilon: 0.1, epsilonHigh: 0 })).toBe(0.1);
    // What a GRPO update is given (GrpoRun.clip).
    const grpo = defaultsOf(GRPO_FIELDS) as unknown as GrpoConfig;
    expect(grpoClip({ ...grpo, epsilon: 0.1 })).toMatchObject({ epsilon: 0.1, epsilonHigh: 0.1 });
    expect(grpoClip({ ...grpo, epsilon: 0.1, epsilonHigh: 0.28 }).epsilonHigh).toBe(0.28);
    expect(upperClip({ epsilon: 0.1, epsilonHigh: 0.28 })).toBe(0.28);
    expect(upperClipNote(GRPO_FIELDS, {})).toBe("0: uses ε = 0.2");
    expect(upperClipNote(GRPO_FIELDS, { epsilon: 0.1 })).toBe("0: uses ε = 0.1");
    expect(upperClipNote(GRPO_FIELDS, { epsilonHigh: 0.28 })).toBeNull();
    expect(upperClipNote(PPO_FIELDS, {})).toBeNull();
  });
});

describe("settings another one switches off", () => {
  it("name an existing setting of the same table and values it can take", () => {
    let n = 0;
    for (const id of ALGO_IDS)
      for (const f of ALGORITHMS[id].fields) {
        if (!f.usedWhen) continue;
        n++;
        const other = ALGORITHMS[id].fields.find((g) => g.key === f.usedWhen?.key);
        expect(other, `${id}.${f.key}`).toBeDefined();
        for (const v of f.usedWhen.values)
          if (other?.kind === "enum") expect(other.options, `${id}.${f.key}`).toContain(v);
          else expect(typeof v, `${id}.${f.key}`).toBe("boolean");
      }
    expect(n).toBeGreaterThanOrEqual(4);
  });

  it("grey out SimPO's γ unless the loss is simpo, and the KL target unless β is adaptive", () => {
    const dpo = ALGORITHMS.dpo.fields;
    const gamma = dpo.find((f) => f.key === "simpoGamma") as Field;
    expect(unusedReason(gamma, dpo, {})).toBe("only used with loss simpo");
    expect(unusedReason(gamma, dpo, { lossType: "simpo" })).toBeNull();
    const smoothing = dpo.find((f) => f.key === "labelSmoothing") as Field;
    expect(unusedReason(smoothing, dpo, {})).toBeNull(); // sigmoid is the default loss
    expect(unusedReason(smoothing, dpo, { lossType: "ipo" })).toBe("only used with loss sigmoid");
    expect(unusedReason(field("klTarget"), PPO_FIELDS, {})).toBe("only used with adaptive β on");
    expect(unusedReason(field("klTarget"), PPO_FIELDS, { adaptiveKl: true })).toBeNull();
    expect(unusedReason(field("beta"), PPO_FIELDS, {})).toBeNull();
  });
});

describe("fields per task", () => {
  it("Safe RLHF's cost offers only the costs the task defines; other fields pass through unchanged", () => {
    const fields = ALGORITHMS.safe_rlhf.fields;
    const cost = fields.find((f) => f.key === "cost");
    if (cost?.kind !== "enum") throw new Error("cost");
    const on = (task: "sentiment" | "arithmetic") => fieldForTask(cost, task);
    expect((on("sentiment") as typeof cost).options).toEqual(["length", "positive_words"]);
    expect((on("arithmetic") as typeof cost).options).toEqual(["length"]);
    // The same object each time (memoised controls), and every other field as it is.
    expect(on("arithmetic")).toBe(on("arithmetic"));
    for (const f of fields) if (f.key !== "cost") expect(fieldForTask(f, "arithmetic")).toBe(f);
  });
});

describe("the completion length a run samples", () => {
  it("notes the cap when max new tokens does not fit the start model's context", () => {
    const room = startRoom("arithmetic", "sft");
    expect(room).toBe(9);
    expect(lengthNote(48, room)).toBe(
      "samples 9 at most: the start model's context leaves 9 after the longest prompt",
    );
    expect(lengthNote(9, room)).toBeNull();
    expect(lengthNote(48, startRoom("sentiment", "sft"))).toBeNull(); // 66 tokens of room
    // After a Pipeline hand-off the Pipeline model's context counts: nano's 32 leaves 25 on arithmetic.
    expect(
      startRoom("arithmetic", "sft", "pipeline: nano (2 layers, C = 32, context 32) after 4 SFT steps"),
    ).toBe(25);
  });
});
