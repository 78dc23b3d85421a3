/**
 * What `lab train --help` and `lab lesson --help` print after their usage lines (cli/lab.ts): the algorithm ids
 * with their names, and an algorithm's settings for `--set` (key, kind and range, default, what it does, TRL's
 * name) once `--algo` names one; the lesson ids with their titles. All from the tables the page's controls use
 * (src/lab/registry.ts, src/lab/presets), so the help cannot drift from what the CLI accepts.
 */
import type { Field } from "../../src/algorithms/fields";
import { PRESET_IDS, type PresetId } from "../../src/lab/presets/ids";
import { LESSONS } from "../../src/lab/presets/index";
import { lessonStatusText } from "../../src/lab/presets/lesson";
import { ALGO_IDS, ALGORITHMS, type AlgoId } from "../../src/lab/registry";

/** Options only the page has: a reward model loaded there, or trained in its Pipeline view. */
const PAGE_ONLY: Readonly<Record<string, readonly string[]>> = { reward: ["custom", "pipeline"] };

/** "number 0–1", "int 1–64", "one of k1|k2|k3", "true|false". */
function kindText(f: Field): string {
  if (f.kind === "enum") {
    const page = PAGE_ONLY[f.key] ?? [];
    const here = f.options.filter((o) => !page.includes(o));
    return `one of ${here.join("|")}${page.length ? ` (${page.join(", ")}: in the page only)` : ""}`;
  }
  if (f.kind === "bool") return "true|false";
  return `${f.kind} ${f.min}–${f.max}${f.unit && f.unit !== "log" ? ` ${f.unit}` : ""}`;
}

/** One line per setting of `algo`, for --set: "  beta  number 0–1, default 0.05: … (TRL: beta)". */
export function settingLines(algo: AlgoId): string[] {
  const fields = ALGORITHMS[algo].fields;
  const width = Math.max(...fields.map((f) => f.key.length));
  return fields.map(
    (f) =>
      `  ${f.key.padEnd(width)}  ${kindText(f)}, default ${String(f.default)}${f.fixed ? " (fixed once the run has started)" : ""}: ${f.doc}${f.trl ? ` (TRL: ${f.trl})` : ""}`,
  );
}

/**
 * The help after `lab train`'s usage: the algorithms, and `algo`'s settings when `algo` is one (the argument of
 * --algo on the same command line, if any).
 */
export function trainHelp(usage: string, algo: string | undefined): string {
  const lines = [
    usage,
    `algorithms (--algo): ${ALGO_IDS.map((id) => `${id} (${ALGORITHMS[id].title})`).join(", ")}`,
  ];
  if (algo && (ALGO_IDS as readonly string[]).includes(algo))
    lines.push(`settings of ${algo} (--set key=value):`, ...settingLines(algo as AlgoId));
  else
    lines.push(
      "settings (--set key=value): `lab train --algo <id> --help` lists an algorithm's, with ranges and defaults",
    );
  return lines.join("\n");
}

/**
 * The help after `lab lesson`'s usage: the lesson ids with their titles, each followed by its status on the
 * shipped models (src/lab/presets/lesson.ts lessonStatusText).
 */
export function lessonHelp(usage: string): string {
  return [
    usage,
    "lessons:",
    ...PRESET_IDS.flatMap((id) => [
      `  ${id}: ${LESSONS[id].title}`,
      `      ${lessonStatusText(LESSONS[id].status)}`,
    ]),
  ].join("\n");
}

/**
 * What `lab lesson <id|all> --list-runs` prints: one line per lesson, its id and its runs' ids separated by
 * commas ("grpo-groups grpo-g2,grpo-g8"), from the lessons' own experiments (seed 0). scripts/device-evidence.sh
 * reads its table of runs from it.
 */
export function lessonRunLines(ids: readonly PresetId[]): string[] {
  return ids.map(
    (id) =>
      `${id} ${LESSONS[id]
        .experiment(0)
        .runs.map((r) => r.id)
        .join(",")}`,
  );
}
