/** The lab layer's edges that a mutation pass found untested: typed bounds, link limits, spec checks, chart x values, progress text, import pairing, the speed cap. */

import LZString from "lz-string";
import { describe, expect, it } from "vitest";
import type { NumberField } from "../../src/algorithms/fields";
import { defaultExperiment } from "../../src/lab/defaults";
import { pairCheckpoints } from "../../src/lab/export/import_match";
import type { MetricPoint } from "../../src/lab/protocol";
import { ALGORITHMS, algorithm } from "../../src/lab/registry";
import { Rounds } from "../../src/lab/sched_rounds";
import { MAX_LABEL } from "../../src/lab/settings";
import { checkRun, checkRunConfig, cleanLabel } from "../../src/lab/spec_check";
import { decode, encode, MAX_HASH, MAX_PAYLOAD, specFromHash, specFromLocation } from "../../src/lab/url";
import { foldHistory } from "../../src/ui/lab/history_memo";
import { logSlider, nudge, parseNumber } from "../../src/ui/lab/knobs";
import { xOf } from "../../src/ui/lab/series";
import { durationText, progressText } from "../../src/ui/lab/step_progress";

const field = (algo: keyof typeof ALGORITHMS, key: string) =>
  ALGORITHMS[algo].fields.find((f) => f.key === key) as NumberField;

describe("knobs: typed bounds and slider kinds", () => {
  it("a typed value equal to either end of the range is accepted", () => {
    expect(parseNumber(field("ppo", "beta"), "10")).toBe(10);
    expect(parseNumber(field("ppo", "beta"), "0")).toBe(0);
    expect(parseNumber(field("ppo", "maxNewTokens"), "256")).toBe(256);
    expect(parseNumber(field("ppo", "maxNewTokens"), "1")).toBe(1);
  });

  it("a big step on a linear slider (PageUp, Shift) moves 10 % of its travel, a plain press 1 %", () => {
    const eps = field("ppo", "epsilon"); // [0, 0.99], linear
    expect([nudge(eps, 0.2, 1), nudge(eps, 0.2, 1, true), nudge(eps, 0.2, -1, true)]).toEqual([
      0.21, 0.299, 0.101,
    ]);
  });

  it("a decimal field whose range reaches 1,000 asks which reading of “1.000” was meant", () => {
    expect(parseNumber(field("ppo", "klTarget"), "1.000")).toMatch(
      /without separators: 1000, or 1 with a decimal point/,
    );
  });

  it("a default in the first 2 % of a linear range gets a log slider; SimPO's γ at 5 % stays linear", () => {
    expect(logSlider(field("ppo", "beta"))).toBe(true); // 0.05 of [0, 10]: 0.5 %
    expect(logSlider(field("dpo", "simpoGamma"))).toBe(false); // 0.5 of [0, 10]: 5 %
  });
});

describe("links: limits and what a notice quotes", () => {
  it("reads a hash of MAX_HASH characters and refuses one longer as too long", () => {
    const at = (n: number) => decode(`s=${"A".repeat(n - 2)}`);
    const max = at(MAX_HASH);
    expect(!max.ok && max.error.kind).not.toBe("too-long");
    const over = at(MAX_HASH + 1);
    expect(!over.ok && over.error.kind).toBe("too-long");
  });

  it("refuses a short link that decompresses to more than MAX_PAYLOAD characters", () => {
    const hash = `s=${LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, pad: "x".repeat(MAX_PAYLOAD + 10) }))}`;
    expect(hash.length).toBeLessThanOrEqual(MAX_HASH);
    const r = decode(hash);
    expect(!r.ok && r.error.kind).toBe("too-long");
  });

  it("quotes at most 24 ignored characters, then an ellipsis", () => {
    const hash = `#${encode(defaultExperiment())}`;
    expect(specFromHash(`${hash}${"x".repeat(30)}`).notice).toMatch(
      /30 characters after its experiment \(“x{24}…”\)/,
    );
  });

  it("a query holding the experiment after another parameter (?a=1&s=…) says how to open it", () => {
    const o = specFromLocation({ hash: "", search: "?utm_source=mail&s=abc" });
    expect(o.source).toBe("default");
    expect(o.notice).toMatch(/after “\?s=”/);
  });
});

describe("spec checks: fork points, labels, settings in conflict", () => {
  it("a fork at step 0 (forked before its source stepped) keeps its fork point", () => {
    const issues: string[] = [];
    const run = checkRun(
      { id: "ppo-2", algo: "ppo", forkOf: { id: "ppo-1", step: 0 } },
      1,
      new Set(),
      issues,
    );
    expect(run?.forkOf).toEqual({ id: "ppo-1", step: 0 });
    expect(issues).toEqual([]);
  });

  it("a run whose id is taken is given a new one, and the notice says so without the ids (shown nowhere)", () => {
    const issues: string[] = [];
    const run = checkRun({ id: "ppo-1", algo: "ppo" }, 1, new Set(["ppo-1"]), issues);
    expect(run?.id).toBe("ppo-2");
    expect(issues).toEqual(["two runs had the same id; run 2 (PPO) was given a new one"]);
    // An id that is no id is replaced without a word; the run's label names it in the issues.
    const quiet: string[] = [];
    const named = checkRun(
      { id: "no id!", algo: "ppo", label: "Mine", config: { lr: "x" } },
      0,
      new Set(),
      quiet,
    );
    expect(named?.id).toBe("ppo-1");
    expect(quiet).toEqual(['Mine.lr must be a number in [0, 1], got "x"; using the default 0.0001']);
  });

  it("a label's length counts characters, not UTF-16 units (emoji are one each)", () => {
    expect(cleanLabel("🙂".repeat(MAX_LABEL))).toBe("🙂".repeat(MAX_LABEL));
    expect(cleanLabel("🙂".repeat(MAX_LABEL + 1))).toBeNull();
  });

  it("settings still in conflict once the first conflict's keys are dropped all go back to the defaults", () => {
    const issues: string[] = [];
    const raw = { numMiniBatches: 16, batchPrompts: 4, adaptiveKl: true, beta: 0 };
    expect(checkRunConfig("ppo", "ppo-1", raw, issues)).toEqual({});
    expect(issues.join(" ")).toMatch(/using the defaults for all its settings/);
  });

  it("an algorithm is an own key of the registry: `lab train --algo constructor` is refused by name", () => {
    // Before: ALGORITHMS["constructor"] is Object, and the CLI failed with "info.fields is not iterable".
    for (const id of ["constructor", "toString", "__proto__", "hasOwnProperty"])
      expect(() => algorithm(id), id).toThrow(new RegExp(`^unknown algorithm "${id}" \\(known: ppo,`));
    expect(algorithm("grpo").id).toBe("grpo");
  });
});

describe("charts and progress text", () => {
  it("√KL plots a negative k1 batch estimate at 0, not at √|KL|", () => {
    const p: MetricPoint = { step: 1, samples: 8, tokens: 64, metrics: { "objective/kl": -0.04 } };
    expect(xOf(p, "sqrt_kl", "objective/kl")).toBe(0);
  });

  it("foldHistory folds only the points appended since its last call", () => {
    const memo = new WeakMap<MetricPoint, number>();
    const pts: MetricPoint[] = Array.from({ length: 10 }, (_, i) => ({
      step: i + 1,
      samples: 0,
      tokens: 0,
      metrics: {},
    }));
    let calls = 0;
    const add = (n: number) => {
      calls++;
      return n + 1;
    };
    expect(foldHistory(pts.slice(0, 6), memo, 0, add)).toBe(6);
    calls = 0;
    expect(foldHistory(pts, memo, 0, add)).toBe(10);
    expect(calls).toBe(4);
  });

  it("an update count never reads past its total, and durations round to the minute", () => {
    expect(progressText({ stage: "update", done: 4, total: 4 })).toBe("update 4/4");
    expect(durationText(3_690_000)).toBe("1 h 02 min"); // 61.5 min
  });
});

describe("import pairing", () => {
  it("checkpoints that name nothing go to run files in the order both were picked", () => {
    const run = (label: string) => ({ algo: "ppo", label, step: 5, task: "arithmetic", seed: 0 });
    expect(pairCheckpoints([run("A"), run("B")], [{}, {}]).map((p) => p.index)).toEqual([0, 1]);
  });

  it("a mismatch is named only for a lone run file with a lone checkpoint", () => {
    const run = (label: string) => ({ algo: "ppo", label, step: 5, task: "arithmetic", seed: 0 });
    const grpo = { algo: "grpo" };
    expect(pairCheckpoints([run("A")], [grpo])[0].problem).toMatch(/grpo run/);
    expect(pairCheckpoints([run("A"), run("B")], [grpo]).map((p) => p.problem)).toEqual([null, null]);
  });
});

describe("scheduler rounds: the speed cap with a run catching up", () => {
  it("a run taking two turns a round still steps at most `speed` times a second", () => {
    const a = { step: 3 };
    const b = { step: 0 };
    const r = new Rounds<{ step: number }>();
    r.next(() => [a, b]); // a round of 3 turns: a, b, b
    // b steps twice in 3 turns: 1 step/s per run means 2/3 s between any two steps.
    expect(r.gap(1)).toBeCloseTo(2000 / 3, 6);
  });
});
