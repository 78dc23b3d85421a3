/**
 * A link or a run file cannot fill the lab's notice with text of its own: the values the messages quote (a
 * format version, an algorithm that is no string, a setting's value or name) are cut to a few dozen characters
 * (src/util/quote.ts), so a crafted link cannot show a long fake message in the lab's yellow notice; labels
 * lose invisible characters.
 */
import { compressToEncodedURIComponent } from "lz-string";
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { parseRunFile, runFileJson } from "../../src/lab/export/run_file";
import { cleanLabel, labelLooks } from "../../src/lab/spec_check";
import { specFromHash, URL_VERSION } from "../../src/lab/url";
import { clipped, plainText, quoted } from "../../src/util/quote";

/** A run as a run file holds it: the default PPO, paused at step 0. */
const run0 = () => ({
  spec: defaultExperiment().runs[0],
  status: "paused" as const,
  step: 0,
  history: [],
  markers: [],
});
const hashOf = (payload: unknown) => `#s=${compressToEncodedURIComponent(JSON.stringify(payload))}`;
const SPOOF = `IMPORTANT — security notice: your runs are corrupted, open https://example.test/restore now. ${"x".repeat(3000)}`;

describe("quoting untrusted values in messages", () => {
  it("cuts long values with …, keeps short ones whole, writes numbers as JavaScript does", () => {
    expect(quoted("abc")).toBe('"abc"');
    expect(quoted(Number.POSITIVE_INFINITY)).toBe("Infinity");
    expect(quoted(undefined)).toBe("undefined");
    expect(quoted("\u202eexe.png")).toBe('"exe.png"');
    expect(quoted(SPOOF)).toHaveLength(41);
    expect(quoted(SPOOF).endsWith("…")).toBe(true);
    expect(quoted({ a: [[[[1]]]] }, 8)).toBe('{"a":[[[…');
  });

  it("a link's version, algorithm and settings are quoted short in the notice", () => {
    const version = specFromHash(hashOf({ v: SPOOF }));
    expect(version.notice?.length).toBeLessThan(400);
    const deep: unknown = JSON.parse(`${"[".repeat(2000)}${"]".repeat(2000)}`);
    const runs = specFromHash(
      hashOf({
        v: URL_VERSION,
        task: "arithmetic",
        runs: [
          { id: "a", algo: deep },
          { id: "b", algo: "ppo", config: { beta: SPOOF, lossType: SPOOF } },
          { id: "c", algo: "ppo", config: { [SPOOF]: 1 } },
        ],
      }),
    );
    expect(runs.notice).not.toBeNull();
    expect(runs.notice?.length).toBeLessThan(1200);
    expect(runs.notice).not.toContain("x".repeat(100));
  });

  it("a run file's format version is quoted short", () => {
    const r = parseRunFile(JSON.stringify({ version: SPOOF, experiment: defaultExperiment() }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.length).toBeLessThan(200);
  });

  it("labels lose invisible characters, so two runs cannot look alike under two labels", () => {
    expect(cleanLabel("GRPO\u200b")).toBe("GRPO");
    expect(cleanLabel("\ufeffPPO\u2060\u00ad")).toBe("PPO");
    expect(cleanLabel("\u202eevil\u0085")).toBe("evil");
    expect(cleanLabel("\u200b")).toBeNull();
    // Runs of spaces of any kind read as one (a page shows "My  run" and "My\u00a0run" as "My run").
    expect(cleanLabel("My  run")).toBe("My run");
    expect(cleanLabel("My\u00a0run")).toBe("My run");
    expect(cleanLabel("My\t\u3000 \u200b run ")).toBe("My run");
    expect(cleanLabel(" \u00a0 ")).toBeNull();
    const o = specFromHash(
      hashOf({
        v: URL_VERSION,
        task: "arithmetic",
        runs: [
          { id: "a", algo: "grpo", label: "GRPO" },
          { id: "b", algo: "grpo", label: "GRPO\u200b" },
          // Cyrillic Р, Р, О: "PPO" to the eye.
          { id: "c", algo: "ppo", label: "PPO" },
          { id: "d", algo: "ppo", label: "\u0420\u0420\u041e" },
          { id: "e", algo: "ppo", label: "ΡΡΟ" },
        ],
      }),
    );
    expect(o.spec.runs.map((r) => r.label)).toEqual([
      "GRPO",
      "GRPO 2",
      "PPO",
      "\u0420\u0420\u041e 2",
      "ΡΡΟ 3",
    ]);
    expect(labelLooks("\u0420\u0420\u041e")).toBe("PPO");
    expect(labelLooks("β = 0")).toBe("β = 0");
    expect(labelLooks("ＰＰＯ")).toBe("PPO"); // full-width, by NFKC
  });

  it("a name is clipped short and plain; a run file's start model loses invisible characters", () => {
    expect(clipped("input_ids")).toBe("input_ids");
    expect(clipped(`\u202e${"n".repeat(100)}`)).toBe(`${"n".repeat(40)}…`);
    expect(plainText(" a\u034fb\ufe00c\u3164 ")).toBe("abc");
    const file = JSON.parse(runFileJson(defaultExperiment(), run0()));
    file.experiment.startModel = `\u202eIMPORTANT ${"x".repeat(400)}`;
    const r = parseRunFile(JSON.stringify(file));
    expect(r.ok && r.experiment.startModel?.startsWith("IMPORTANT")).toBe(true);
    expect(r.ok && r.experiment.startModel?.length).toBe(120);
  });
});
