/** Names the page gives an experiment's task and start model, and a one-line description of a kept one. */
import { ARCHIVE_MAX, type ArchiveEntry } from "../../lab/archive";
import { LESSONS } from "../../lab/presets/index";
import type { ExperimentSpec } from "../../lab/protocol";

export const TASK_NAMES: Record<ExperimentSpec["task"], string> = {
  sentiment: "Sentiment",
  arithmetic: "Arithmetic",
};

export const TASK_DOCS: Record<ExperimentSpec["task"], string> = {
  sentiment:
    "Continue an opening of Moby-Dick; the gold reward is the text's sentiment (AFINN-165 lexicon, tanh of the word sum / 5). Character-level.",
  arithmetic:
    "Answer a+b= for 2-digit numbers; the gold reward is 1 for the exact sum. Short sequences: fast, even on a software GPU.",
};

export const MODEL_NAMES: Record<ExperimentSpec["model"], string> = {
  sft: "shipped SFT model",
  nano: "nano (random init)",
  tiny: "tiny (random init)",
  small: "small (random init)",
};

/**
 * The start model as a student reads it: the shipped checkpoint by name, the Pipeline's by its size and steps
 * (the full description stays in the tooltip).
 */
export function modelName(source: string): string {
  if (/^models\/[\w-]+\/sft\.safetensors$/.test(source)) return "shipped SFT model";
  // "pipeline: nano (2 layers, C = 32, context 48) after 40 SFT steps (this page)"
  const piped = /^pipeline: (\w+) \(.*\) after (\d+) SFT steps/.exec(source);
  if (piped) return `Pipeline's SFT model (${piped[1]}, ${piped[2]} steps)`;
  // "nano (random init, seed 0)": the seed has its own field next to it.
  return source.replace(/ \(random init, seed \d+\)$/, " (random init)");
}

/**
 * "Sentiment · shipped SFT model · seed 0", after the lesson's title when it is one ("KL estimators k1, k2, k3: …").
 * `startModel`: the Pipeline model the runs started from after a hand-off (its description), named instead of
 * `spec.model`.
 */
export function experimentTitle(spec: ExperimentSpec, startModel?: string | null): string {
  // A kept spec may name a lesson an older version had.
  const title = spec.preset ? LESSONS[spec.preset]?.title : undefined;
  const lesson = title ? `${title}: ` : "";
  const model = startModel ? modelName(startModel) : MODEL_NAMES[spec.model];
  return `${lesson}${TASK_NAMES[spec.task]} · ${model} · seed ${spec.seed}`;
}

/** "PPO at step 40, DPO at step 12" — the runs of a kept experiment that trained ("no training" when none did). */
export function keptRunsText(entry: Pick<ArchiveEntry, "runs" | "pipeline">): string {
  const trained = entry.runs
    .filter((r) => r.step > 0)
    .map(
      (r) => `${r.label} at step ${r.step}${r.curvesOnly ? " (curves only: no checkpoint was saved)" : ""}`,
    );
  const compared = entry.runs.filter((r) => r.comparison).length;
  const parts = trained.length ? [trained.join(", ")] : [];
  if (compared) parts.push(`${compared} run${compared === 1 ? "" : "s"} imported for comparison`);
  if (!parts.length) parts.push("no training");
  if (entry.pipeline) parts.push("Pipeline models");
  return parts.join("; ");
}

/** "the kept experiment with the least training (…: PPO at step 40)", for entries forgotten to make room. */
export function leastText(entries: readonly ArchiveEntry[]): string {
  const named = entries.map((e) => `${experimentTitle(e.spec, e.startModel)}: ${keptRunsText(e)}`).join("; ");
  return `the kept experiment${entries.length > 1 ? "s" : ""} with the least training (${named})`;
}

/**
 * " To make room, this browser forgot the kept experiment with the least training (…: PPO at step 40)." after
 * keeping one, when the list was full ({@link ARCHIVE_MAX}); "" otherwise.
 */
export function droppedText(dropped: readonly ArchiveEntry[] | undefined): string {
  if (!dropped?.length) return "";
  return ` To make room (it keeps ${ARCHIVE_MAX}), this browser forgot ${leastText(dropped)}.`;
}

/** Why an experiment was not kept (src/lab/archive.ts KeptEntry `kept` false: it held the least training). */
export const NOT_KEPT_WHY = `the ${ARCHIVE_MAX} kept experiments each hold more training`;

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "5 minutes ago", "yesterday" … for a time in ms since the epoch. */
export function timeAgo(at: number, now = Date.now()): string {
  const s = Math.round((at - now) / 1000);
  if (s > -60) return "just now";
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["minute", 60],
    ["hour", 3600],
    ["day", 86400],
  ];
  let best: [Intl.RelativeTimeFormatUnit, number] = units[0];
  for (const u of units) if (-s >= u[1]) best = u;
  return RELATIVE.format(Math.round(s / best[1]), best[0]);
}
