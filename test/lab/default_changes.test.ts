/**
 * Defaults that changed meaning (src/lab/default_changes.ts), through the three ways a run's settings come back:
 * a link, a run file, a saved experiment (test/lab/persist*.test.ts read it back). A reviewer opened a GRPO run
 * of 2026-12-01 (ε = 0.1, ε_high left at its default, 0.2 then) in today's lab: links, the saved session and the
 * run file all brought it back clipping above at 1.1 instead of 1.2, without a word.
 */
import LZString from "lz-string";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CHANGES,
  migrateRun,
  revisionNote,
  revisionOf,
  SETTINGS_REVISION,
} from "../../src/lab/default_changes";
import { parseRunFile, runFile } from "../../src/lab/export/run_file";
import type { RunSpec } from "../../src/lab/protocol";
import { ALGORITHMS } from "../../src/lab/registry";
import { runAsWritten } from "../../src/lab/spec_check";
import { decode, encode, noticeOf } from "../../src/lab/url";

const grpo = (config: RunSpec["config"]): RunSpec => ({
  id: "grpo-1",
  algo: "grpo",
  label: "GRPO eps0.1",
  config,
});

/** A link as the lab wrote it before settings revisions (no `d`), or at revision `d`. */
function link(runs: RunSpec[], d?: number): string {
  const payload = { v: 1, ...(d !== undefined && { d }), task: "arithmetic", model: "nano", seed: 0, runs };
  return `s=${LZString.compressToEncodedURIComponent(JSON.stringify(payload))}`;
}

describe("defaults that changed meaning", () => {
  it("every change names a setting its algorithms have, with the new default differing from the old", () => {
    for (const c of DEFAULT_CHANGES) {
      expect(c.revision).toBeLessThanOrEqual(SETTINGS_REVISION);
      for (const algo of c.algos) {
        const f = ALGORITHMS[algo].fields.find((x) => x.key === c.key);
        expect(f, `${algo}.${c.key}`).toBeDefined();
        expect(f?.default).not.toBe(c.before);
      }
    }
  });

  it("a link without a revision: the GRPO run as read, and a notice where ε_high's old default mattered", () => {
    const r = decode(link([grpo({ epsilon: 0.1 })]));
    if (!r.ok) throw r.error;
    expect(r.spec.runs[0].config).toEqual({ epsilon: 0.1 });
    const notice = noticeOf(r) ?? "";
    expect(notice).toContain(
      "This link does not say which version of the lab made it. If it was made before 3 Dec 2026, when ε_high's default was 0.2 (now 0, which follows ε): ",
    );
    expect(notice).toContain("GRPO eps0.1 now clips the ratio above at 1 + ε = 1.1, not 1.2");
    expect(notice).toContain("; to train as it did then, set ε_high to 0.2 on its card.");
    // Nothing differs: ε at its default (both clip at 1.2), ε_high set, or not a GRPO-family run.
    for (const runs of [
      [grpo({})],
      [grpo({ epsilon: 0.1, epsilonHigh: 0.28 })],
      [{ id: "ppo-1", algo: "ppo", label: "PPO", config: { epsilon: 0.1 } } as RunSpec],
    ]) {
      const quiet = decode(link(runs));
      expect(quiet.ok && quiet.defaults).toBeFalsy();
    }
    // Safe RLHF shares GRPO's clip.
    const safe = decode(link([{ id: "s", algo: "safe_rlhf", label: "Safe", config: { epsilon: 0.3 } }]));
    expect(safe.ok && safe.defaults).toContain("Safe now clips the ratio above at 1 + ε = 1.3, not 1.2");
  });

  it("says why once for several runs, and how to undo it for all of them", () => {
    const safe: RunSpec = { id: "s", algo: "safe_rlhf", label: "Safe", config: { epsilon: 0.3 } };
    const r = decode(link([grpo({ epsilon: 0.1 }), safe]));
    const notice = (r.ok && r.defaults) || "";
    expect(notice.split("ε_high's default was 0.2")).toHaveLength(2);
    expect(notice).toContain(
      "GRPO eps0.1 now clips the ratio above at 1 + ε = 1.1, not 1.2; Safe now clips the ratio above at 1 + ε = 1.3, not 1.2; to train as they did then, set ε_high to 0.2 on their cards.",
    );
  });

  it("a link at an older revision gets the old default written out, silently; today's and a newer one as read", () => {
    const old = decode(link([grpo({ epsilon: 0.1 })], 1));
    expect(old.ok && old.spec.runs[0].config).toEqual({ epsilon: 0.1, epsilonHigh: 0.2 });
    expect(old.ok && old.defaults).toBeFalsy();
    const now = decode(link([grpo({ epsilon: 0.1 })], SETTINGS_REVISION));
    expect(now.ok && now.spec.runs[0].config).toEqual({ epsilon: 0.1 });
    expect(now.ok && now.defaults).toBeFalsy();
    const newer = decode(link([grpo({ epsilon: 0.1 })], SETTINGS_REVISION + 1));
    expect(newer.ok && newer.defaults).toMatch(/^This link was made by a newer version of the lab/);
  });

  it("the lab writes its revision in links and run files, which read back unchanged and without a notice", () => {
    const spec = {
      task: "arithmetic" as const,
      model: "nano" as const,
      seed: 0,
      runs: [grpo({ epsilon: 0.1 })],
    };
    const r = decode(encode(spec));
    expect(r.ok && r.spec.runs[0].config).toEqual({ epsilon: 0.1 });
    expect(r.ok && noticeOf(r)).toBeNull();
    const record = {
      spec: grpo({ epsilon: 0.1 }),
      status: "paused" as const,
      step: 0,
      history: [],
      markers: [],
    };
    const file = runFile(spec, record);
    expect(file.settingsRevision).toBe(SETTINGS_REVISION);
    const back = parseRunFile(JSON.stringify(file));
    expect(back.ok && back.run.config).toEqual({ epsilon: 0.1 });
    expect(back.ok && back.revision).toBe(SETTINGS_REVISION);
    // A file without one (before 2026-12-07): read as it is, its revision unknown (the import's notice says so).
    const { settingsRevision: _, ...older } = file;
    const old = parseRunFile(JSON.stringify(older));
    expect(old.ok && old.revision).toBeUndefined();
    expect(old.ok && revisionNote([old.run], old.revision, "Its file")).toContain("GRPO eps0.1 now clips");
    const one = parseRunFile(JSON.stringify({ ...file, settingsRevision: 1 }));
    expect(one.ok && one.run.config).toEqual({ epsilon: 0.1, epsilonHigh: 0.2 });
  });

  it("a value set the old way is said whatever the revision: ε_high = 0 meant no rise above 1", () => {
    // Today's links never write 0 (the default); one from before 3 Dec did, meaning a clip at exactly 1.
    const zero = grpo({ epsilon: 0.1, epsilonHigh: 0 });
    for (const d of [undefined, 1]) {
      const r = decode(link([zero], d));
      expect(r.ok && r.spec.runs[0].config).toEqual({ epsilon: 0.1 });
      expect(r.ok && r.defaults).toContain(
        "when ε_high = 0 kept the ratio from rising above 1 (now 0 follows ε): GRPO eps0.1 now clips the ratio above at 1 + ε = 1.1, not 1; for nearly the old clip, set ε_high to a small value such as 0.001 on its card.",
      );
    }
    expect(revisionNote([zero], 1, "This link")).toMatch(
      /^This link was made by an earlier version of the lab\. Made before 3 Dec 2026, when ε_high = 0 /,
    );
    expect(revisionNote([zero], SETTINGS_REVISION, "This link")).toBeNull();
    // A run file the same (a reviewer's, at revision 1, came in at ε_high 0.2 with nothing said).
    const spec = { task: "arithmetic" as const, model: "nano" as const, seed: 0, runs: [zero] };
    const file = runFile(spec, { spec: zero, status: "paused", step: 0, history: [], markers: [] });
    for (const settingsRevision of [undefined, 1]) {
      const r = parseRunFile(JSON.stringify({ ...file, settingsRevision }));
      if (!r.ok) throw new Error(r.error);
      expect(r.run.config).toEqual({ epsilon: 0.1 });
      expect(revisionNote(r.written ? [r.written] : [], r.revision, "Its file")).toContain(
        "ε_high = 0 kept the ratio",
      );
    }
  });

  it("names a run as the check renames it and reads only the settings it keeps: no bidi label, no “ε = NaN”", () => {
    const evil = `\u202Eevil${"x".repeat(300)}`;
    const runs = [
      { id: "grpo-1", algo: "grpo", label: evil, config: { epsilonHigh: 0, epsilon: "0.1" } },
      { id: "grpo-2", algo: "grpo", label: "B", config: { epsilon: "abc" } },
    ] as unknown as RunSpec[];
    const r = decode(link(runs));
    if (!r.ok) throw r.error;
    // The issues still name the label and both ε (the check gets the runs as written).
    expect(r.issues).toEqual([
      'run 1: its name was invalid; named "GRPO"',
      'run 1 (GRPO).epsilon must be a number in [0, 0.99], got "0.1"; using the default 0.2',
      'B.epsilon must be a number in [0, 0.99], got "abc"; using the default 0.2',
    ]);
    // Before: "‮evilxxx…(300) now clips … at 1 + ε = 1.1, not 1" and "B now clips … at 1 + ε = NaN, not 1.2".
    expect(r.defaults).toContain("GRPO now clips the ratio above at 1 + ε = 1.2, not 1;");
    expect(r.defaults).not.toMatch(/NaN|\u202E|xxx|B now/);
    // At an older revision the old default is still written out where the run sets none, and a bad ε still said.
    const old = decode(link([grpo({ epsilon: "abc" } as unknown as RunSpec["config"])], 1));
    expect(old.ok && old.spec.runs[0].config).toEqual({ epsilonHigh: 0.2 });
    expect(old.ok && old.issues).toEqual([
      'GRPO eps0.1.epsilon must be a number in [0, 0.99], got "abc"; using the default 0.2',
    ]);
    // A run file's run as written (the import's notice reads it) alike; an algorithm that is no own key is no run.
    const spec = { task: "arithmetic" as const, model: "nano" as const, seed: 0, runs: [grpo({})] };
    const file = runFile(spec, { spec: grpo({}), status: "paused", step: 0, history: [], markers: [] });
    const { settingsRevision: _, ...older } = file;
    const f = parseRunFile(JSON.stringify({ ...older, run: runs[0] }));
    if (!f.ok) throw new Error(f.error);
    expect(f.written).toMatchObject({ label: "GRPO", config: { epsilonHigh: 0 } });
    expect(f.written?.config).not.toHaveProperty("epsilon");
    expect(revisionNote(f.written ? [f.written] : [], f.revision, "Its file")).toContain(
      "1 + ε = 1.2, not 1;",
    );
    for (const algo of ["constructor", "__proto__", "toString"]) expect(runAsWritten({ algo })).toBeNull();
  });

  it("migrating is idempotent and leaves a set value alone; revisions are whole numbers ≥ 1", () => {
    const once = migrateRun(grpo({ epsilon: 0.1 }), 1);
    expect(migrateRun(once, 1)).toEqual(once);
    expect(migrateRun(grpo({ epsilonHigh: 0.28 }), 1).config).toEqual({ epsilonHigh: 0.28 });
    for (const bad of [0, 1.5, "2", null, -1]) expect(revisionOf(bad)).toBeUndefined();
    expect(revisionOf(2)).toBe(2);
  });
});
