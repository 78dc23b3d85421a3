import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from "lz-string";
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { DEFAULT_SHARED_VIEW, MAX_LABEL } from "../../src/lab/settings";
import { issueText } from "../../src/lab/spec_check";
import {
  decode,
  EMPTY_NOTE,
  encode,
  MAX_HASH,
  NOTICE_ISSUES,
  noticeOf,
  shareUrl,
  specFromHash,
  specFromLocation,
  URL_VERSION,
} from "../../src/lab/url";
import { Rng } from "../../src/util/rng";
import { assertValidSpec, normalized, randomPipeline, randomSpec, randomView } from "./spec_gen";

/** The hash of an arbitrary payload object (tampered links). */
const hashOf = (payload: unknown) => `#s=${compressToEncodedURIComponent(JSON.stringify(payload))}`;
const LZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";

function randomString(rng: Rng, n: number, alphabet?: string): string {
  let s = "";
  for (let i = 0; i < n; i++)
    s += alphabet ? alphabet[rng.int(0, alphabet.length - 1)] : String.fromCodePoint(rng.int(0, 0x2fff));
  return s;
}

describe("settings ↔ URL", () => {
  it("round-trips 300 random specs and views exactly (configs normalised to non-defaults)", () => {
    const rng = new Rng(1);
    let longest = 0;
    for (let i = 0; i < 300; i++) {
      const spec = randomSpec(rng);
      const view = randomView(rng);
      const pipeline = randomPipeline(rng);
      const hash = encode(spec, view, pipeline.set);
      longest = Math.max(longest, hash.length);
      const back = decode(`#${hash}`);
      expect(back.ok).toBe(true);
      if (!back.ok) continue;
      expect(back.issues).toEqual([]);
      expect(back.altered).toBeUndefined();
      expect(back.spec).toEqual(normalized(spec));
      expect(back.view).toEqual(view);
      expect(back.pipeline).toEqual(pipeline.nonDefault);
    }
    expect(longest).toBeLessThan(MAX_HASH / 2);
  });

  it("carries the Pipeline's changed settings; bad ones are dropped with a notice, the rest kept", () => {
    const spec = defaultExperiment();
    expect(encode(spec, DEFAULT_SHARED_VIEW, { sftSteps: 40, size: "nano" })).toBe(encode(spec));
    const r = decode(encode(spec, DEFAULT_SHARED_VIEW, { sftSteps: 120, rmLr: 3e-4 }));
    expect(r.ok && r.pipeline).toEqual({ sftSteps: 120, rmLr: 3e-4 });
    const payload = { v: URL_VERSION, task: spec.task, model: spec.model, seed: 0, runs: spec.runs };
    const bad = specFromHash(
      hashOf({ ...payload, pipeline: { sftSteps: 0, size: "huge", rmBatch: 12, weights: 1 } }),
    );
    expect(bad.source).toBe("url");
    expect(bad.pipeline).toEqual({ rmBatch: 12 });
    expect(bad.notice).toMatch(
      /the Pipeline's “SFT steps” must be an integer in \[1, 5000\], got 0; using the default 40/,
    );
    expect(bad.notice).toMatch(
      /the Pipeline's “model size” must be one of nano \| tiny, got "huge"; using the default "nano"/,
    );
    expect(bad.notice).toMatch(/Pipeline: unknown setting "weights" ignored/);
    const unreadable = specFromHash(hashOf({ ...payload, pipeline: [1, 2] }));
    expect(unreadable.pipeline).toEqual({});
    expect(unreadable.notice).toMatch(/Pipeline's settings are not readable/);
    expect(specFromHash("").pipeline).toEqual({});
  });

  it("writes only what differs from the defaults", () => {
    const spec = defaultExperiment();
    spec.runs[0].config = { beta: 0.05, lr: 3e-4 }; // PPO's beta default is 0.05
    const hash = encode(spec, DEFAULT_SHARED_VIEW);
    const r = decode(hash);
    expect(r.ok && r.spec.runs[0].config).toEqual({ lr: 3e-4 });
    expect(hash.length).toBeLessThan(400); // the default experiment with one changed setting
  });

  it("opens the defaults without a notice when there is no hash", () => {
    for (const hash of ["", "#"]) {
      const o = specFromHash(hash);
      expect(o.notice).toBeNull();
      expect(o.source).toBe("default");
      expect(o.spec).toEqual(defaultExperiment());
    }
    expect(specFromLocation(undefined).spec).toEqual(defaultExperiment());
    expect(specFromLocation({ hash: `#${encode({ ...defaultExperiment(), seed: 7 })}` }).spec.seed).toBe(7);
    // The experiment moved into the query by some app: the defaults, with a notice saying how to open it.
    const queried = specFromLocation({ hash: "", search: `?${encode({ ...defaultExperiment(), seed: 7 })}` });
    expect(queried.spec).toEqual(defaultExperiment());
    expect(queried.notice).toMatch(/after “\?s=”.*Replace that “\?” with “#”/);
    expect(specFromLocation({ hash: "", search: "?utm=1" }).notice).toBeNull();
  });

  it("never throws on 400 random and malformed URLs; unreadable ones give defaults and a notice", () => {
    const rng = new Rng(2);
    const good = encode(randomSpec(new Rng(3)), randomView(new Rng(3)));
    /** Garbage, truncations and structural tampering: none of these can be read. */
    const unreadable: string[] = [];
    for (let i = 0; i < 95; i++) unreadable.push(`#${randomString(rng, rng.int(1, 400))}`);
    for (let i = 0; i < 95; i++) unreadable.push(`#s=${randomString(rng, rng.int(1, 400), LZ_ALPHABET)}`);
    // Cut after at least "s" ("#" alone is no link at all: the defaults, without a notice).
    for (let i = 0; i < 95; i++) unreadable.push(`#${good.slice(0, rng.int(1, good.length - 2))}`);
    for (let i = 0; i < 20; i++) unreadable.push(`#s=${randomString(rng, rng.int(1, 50))}%`);
    unreadable.push(
      `#s=${"A".repeat(100_000)}`,
      `#s=${compressToEncodedURIComponent("x".repeat(200_000))}`,
      `#s=${compressToEncodedURIComponent("not json")}`,
      hashOf([1, 2, 3]),
      hashOf(null),
      hashOf(42),
      hashOf({ v: 99, task: "sentiment" }),
      hashOf({ task: "sentiment" }),
      "#x=abc",
      "#s=",
    );
    /** One character of a good link replaced: some still decode (to other values), which the field checks catch. */
    const flipped: string[] = [];
    for (let i = 0; i < 95; i++) {
      const j = rng.int(2, good.length - 1);
      flipped.push(
        `#${good.slice(0, j)}${LZ_ALPHABET[rng.int(0, LZ_ALPHABET.length - 1)]}${good.slice(j + 1)}`,
      );
    }
    expect(unreadable.length + flipped.length).toBeGreaterThanOrEqual(400);
    const open = (hash: string) => {
      let o: ReturnType<typeof specFromHash> | undefined;
      expect(() => {
        o = specFromHash(hash);
      }).not.toThrow();
      assertValidSpec(o!.spec);
      return o!;
    };
    for (const hash of unreadable) {
      const o = open(hash);
      expect(decode(hash).ok).toBe(false);
      expect(o.source).toBe("default");
      expect(o.spec).toEqual(defaultExperiment());
      expect(o.view).toEqual(DEFAULT_SHARED_VIEW);
      expect(o.notice).toMatch(/could not be opened/);
    }
    let read = 0;
    for (const hash of flipped) {
      const o = open(hash);
      if (o.source === "url") read++;
      else expect(o.notice).toMatch(/could not be opened/);
    }
    expect(read).toBeLessThan(flipped.length / 2);
  });

  it("a start model the task's prompts do not fit becomes the shipped SFT model, with a notice", () => {
    // An unknown task falls back to sentiment, whose 62-token prompts leave nano (context 32) no room: every
    // run would fail to start. A link with that pair itself is read the same way.
    for (const task of ["poetry", "sentiment"]) {
      const o = specFromHash(hashOf({ v: URL_VERSION, task, model: "nano", seed: 3 }));
      expect(o.spec.task, task).toBe("sentiment");
      expect(o.spec.model, task).toBe("sft");
      expect(o.spec.seed, task).toBe(3);
      expect(o.notice, task).toContain("nano's context (32 tokens) is too short for this task's prompts");
      expect(o.notice, task).toContain("using the shipped SFT model");
    }
    // Arithmetic's 7-token prompts fit: nano stays.
    const ok = specFromHash(hashOf({ v: URL_VERSION, task: "arithmetic", model: "nano", seed: 3 }));
    expect(ok.spec.model).toBe("nano");
    expect(ok.notice).toBeNull();
  });

  it("rejects bad values field by field, keeps the rest and names them in the notice", () => {
    const o = specFromHash(
      hashOf({
        v: URL_VERSION,
        task: "chess",
        model: "tiny",
        seed: -5,
        runs: [
          {
            id: "ppo-1",
            algo: "ppo",
            config: { lr: 0.001, beta: 99, epsilon: "wide", foo: 1, whitenAdvantages: false },
          },
          {
            id: "ppo-1",
            algo: "grpo",
            label: "dup\u0007",
            config: { numGenerations: 2.5, lossType: "dapo" },
          },
          { id: "x", algo: "evil", config: {} },
          { id: "c", algo: "constructor" },
          "not a run",
          { id: "dpo-9", algo: "dpo", label: "L".repeat(500), config: { beta: 0.2 } },
        ],
        view: { xAxis: "wallclock", smoothing: 0.9, klEstimator: 3 },
      }),
    );
    expect(o.source).toBe("url");
    expect(o.spec.task).toBe("sentiment");
    expect(o.spec.model).toBe("tiny");
    expect(o.spec.seed).toBe(0);
    expect(o.spec.runs).toEqual([
      { id: "ppo-1", algo: "ppo", label: "PPO", config: { lr: 0.001, whitenAdvantages: false } },
      { id: "grpo-1", algo: "grpo", label: "dup", config: { lossType: "dapo" } },
      { id: "dpo-9", algo: "dpo", label: "DPO", config: { beta: 0.2 } },
    ]);
    expect(o.view).toEqual({ ...DEFAULT_SHARED_VIEW, smoothing: 0.9 });
    expect(o.notice).toMatch(/not valid/);
    // Settings named as the page names them, not by their table keys.
    expect(o.notice).toMatch(
      /“task” must be one of sentiment \| arithmetic, got "chess"; using the default "sentiment"/,
    );
    // Runs named by their label, or by their place and algorithm when they have none: not by their internal ids.
    expect(o.notice).toContain(
      "run 1 (PPO)'s “β” must be a number in [0, 10], got 99; using the default 0.05",
    );
    expect(o.notice).toContain("two runs had the same id; dup was given a new one; dup's “G” must be");
    expect(o.notice).not.toMatch(/experiment\.task|\.beta|ppo-1|grpo-1/);
    expect(o.notice).toMatch(/; and \d+ more\.$/);
    expect(
      issueText('view.xAxis must be one of step | samples, got "wallclock"; using the default "step"'),
    ).toBe('the charts\' “x-axis” must be one of step | samples, got "wallclock"; using the default "step"');
    for (const raw of ["ppo-1.noSuchKey must be 1", "run 3: dropped", "elsewhere. must be"])
      expect(issueText(raw)).toBe(raw);
    // A run's label as the owner: spaces and dots of its own included.
    expect(issueText("My run v1.2.lr must be a number in [0, 1], got 5")).toBe(
      "My run v1.2's “lr” must be a number in [0, 1], got 5",
    );
    const letters = "abcdefghijk".split("");
    const notice = (n: number) =>
      noticeOf({ ok: true, spec: o.spec, view: o.view, pipeline: {}, issues: letters.slice(0, n) });
    // Up to NOTICE_ISSUES + 1 issues: all named ("and 1 more" would take the room of the one it hides).
    expect(notice(NOTICE_ISSUES + 1)).toBe(
      `Some settings in this link were not valid and were reset to their defaults: ${letters.slice(0, NOTICE_ISSUES + 1).join("; ")}.`,
    );
    expect(notice(NOTICE_ISSUES + 2)).toBe(
      `Some settings in this link were not valid and were reset to their defaults: ${letters.slice(0, NOTICE_ISSUES).join("; ")}; and 2 more.`,
    );
    const proto = decode(
      `#s=${compressToEncodedURIComponent('{"v":1,"runs":[{"id":"a","algo":"ppo","config":{"__proto__":{"beta":1},"constructor":2}}]}')}`,
    );
    expect(proto.ok && proto.spec.runs[0].config).toEqual({});
    // Labels: bidirectional controls stripped ("\u202eevil" would show as "live"), repeats numbered.
    const labels = decode(
      `#s=${compressToEncodedURIComponent(
        JSON.stringify({
          v: 1,
          runs: [
            { id: "a", algo: "grpo", label: "\u202eevil" },
            { id: "b", algo: "grpo", label: "GRPO" },
            { id: "c", algo: "grpo", label: "GRPO" },
            { id: "d", algo: "grpo" },
            { id: "e", algo: "grpo", label: "G".repeat(MAX_LABEL) },
            { id: "f", algo: "grpo", label: "G".repeat(MAX_LABEL) },
          ],
        }),
      )}`,
    );
    expect(labels.ok && labels.spec.runs.map((r) => r.label)).toEqual([
      "evil",
      "GRPO",
      "GRPO 2",
      "GRPO 3",
      "G".repeat(MAX_LABEL),
      `${"G".repeat(MAX_LABEL - 2)} 2`,
    ]);
    expect(proto.ok && proto.issues.length).toBe(2);
    expect(({} as Record<string, unknown>).beta).toBeUndefined();
    const r = decode(hashOf({ v: URL_VERSION, runs: [{ id: "ppo-1", algo: "ppo", config: { beta: 99 } }] }));
    expect(r.ok && r.issues.join("\n")).toMatch(/run 1 \(PPO\)\.beta must be a number in \[0, .*got 99/);
    // A run's colour is a palette slot 0–63 (shown modulo the 7 colours): kept when it is one, else dropped.
    const colours = decode(
      hashOf({
        v: URL_VERSION,
        runs: [
          { id: "a", algo: "ppo", colour: 4 },
          { id: "b", algo: "ppo", colour: 64 },
          { id: "c", algo: "ppo", colour: "red" },
          { id: "e", algo: "ppo", colour: 9 },
          { id: "d", algo: "ppo", colour: 1.5 },
        ],
      }),
    );
    expect(colours.ok && colours.spec.runs.map((x) => x.colour)).toEqual([
      4,
      undefined,
      undefined,
      9,
      undefined,
    ]);
    expect(colours.ok && colours.issues.filter((i) => /colour/.test(i)).length).toBe(3);
    // A link's fork starts over: a fork point in it is not kept (nor written: see the round trip).
    const forked = decode(
      hashOf({
        v: URL_VERSION,
        runs: [
          { id: "a", algo: "ppo" },
          { id: "b", algo: "ppo", forkOf: { id: "a", step: 3 } },
        ],
      }),
    );
    expect(forked.ok && forked.spec.runs.map((x) => x.forkOf)).toEqual([undefined, undefined]);
    const forkSpecRun = {
      id: "b",
      algo: "ppo" as const,
      label: "PPO (fork @ 3)",
      config: {},
      forkOf: { id: "a", step: 3 },
    };
    const link = encode({ ...defaultExperiment(), runs: [forkSpecRun] }, DEFAULT_SHARED_VIEW);
    expect(decompressFromEncodedURIComponent(link.replace(/^s=/, ""))).not.toMatch(/forkOf/);
    const back = decode(link);
    expect(back.ok && back.spec.runs[0]).toEqual({
      id: "b",
      algo: "ppo",
      label: "PPO (fork @ 3)",
      config: {},
    });
  });

  it("caps the run list, keeps an empty one, and restores default runs when none is usable", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `r${i}`, algo: "grpo" }));
    const a = decode(hashOf({ v: URL_VERSION, runs: many }));
    expect(a.ok && a.spec.runs.length).toBe(12);
    const b = decode(hashOf({ v: URL_VERSION, runs: [] }));
    expect(b.ok && b.spec.runs).toEqual([]);
    // Valid, but a student opening it should learn that the link itself had none (not that the lab lost them).
    expect(b.ok && b.issues).toEqual([]);
    expect(noticeOf(b)).toBe(EMPTY_NOTE);
    expect(noticeOf(a)).not.toContain(EMPTY_NOTE);
    const c = decode(hashOf({ v: URL_VERSION, runs: [{ algo: "nope" }] }));
    expect(c.ok && c.spec.runs).toEqual(defaultExperiment().runs);
    const d = decode(hashOf({ v: URL_VERSION, runs: "ppo" }));
    expect(d.ok && d.issues).toContain("the run list is not a list; default runs");
  });

  it("builds share links on the page URL and opens percent-encoded ones", () => {
    const spec = { ...defaultExperiment(), seed: 42 };
    const url = shareUrl(spec, DEFAULT_SHARED_VIEW, "https://lab.example/?q=1#old");
    expect(url.startsWith("https://lab.example/?q=1#s=")).toBe(true);
    const hash = url.slice(url.indexOf("#"));
    expect(specFromHash(hash).spec).toEqual(spec);
    expect(specFromHash(hash.replace(/\$/g, "%24").replace(/\+/g, "%2B")).spec).toEqual(spec);
    expect(specFromHash(hash.replace(/\$/g, "%24").replace(/\+/g, "%2B")).notice).toBeNull();
    // Through a form decoder ("+" → " ", or "%20"): the same experiment, no notice.
    expect(hash).toContain("+");
    for (const spaced of [hash.replace(/\+/g, " "), hash.replace(/\+/g, "%20")]) {
      expect(specFromHash(spaced).spec).toEqual(spec);
      expect(specFromHash(spaced).notice).toBeNull();
    }
  });
});
