/**
 * What the notice says when an experiment opens over a saved session (./session.ts): which runs of a link
 * resume and which start over, and which forks or imports start from the start model; the saved experiment as
 * the lab opens it.
 */
import { savedStep } from "../../lab/archive";
import { revisionNote } from "../../lab/default_changes";
import type { SavedRun, SavedSession } from "../../lab/persist";
import type { ExperimentSpec, RunSpec } from "../../lab/protocol";
import { sameExperiment, sameRun } from "../../lab/restore";
import { FORK_SUFFIX, withoutForkPoints } from "../../lab/run_labels";
import { checkSpec, issueText, runAsWritten } from "../../lab/spec_check";

/**
 * The experiment saved in this browser as the lab opens it without a link: checked like a link (it may have been
 * saved by an older version of the lab), without fork points (a fork gets its own back from its saved run only if
 * it and its source resume: planRestore, as through a link) and without the runs imported for comparison (not
 * the lab's own: the 12-run cap counts its own; session.ts brings them back as curves). `line`: the notice's
 * sentences on settings reset and on defaults changed since it was saved (./default_changes.ts), or null.
 */
export function savedExperiment(saved: SavedSession): { spec: ExperimentSpec; line: string | null } {
  const issues: string[] = [];
  const curves = new Set(saved.runs.filter((r) => r.comparison).map((r) => r.spec.id));
  const own = { ...saved.spec, runs: saved.spec.runs.filter((r) => !curves.has(r.id)) };
  const spec = withoutForkPoints(checkSpec(own as unknown as Record<string, unknown>, issues));
  const lines = [
    issues.length ? resetSettingsLine(issues, saved.runs, spec.runs) : null,
    // As written (the check drops values at today's defaults: an explicit ε_high = 0 meant no rise above 1).
    revisionNote(
      own.runs.flatMap((r) => runAsWritten(r) ?? []),
      saved.revision,
      "The experiment saved in this browser",
    ),
  ].filter((l): l is string => l !== null);
  return { spec, line: lines.length ? lines.join(" ") : null };
}

/**
 * The kept experiment `kept` is the one `link` names: same task, start model and seed, and every run of the link.
 * Its runs are read as written (runAsWritten): one kept by an older version may list entries that are no run.
 */
export function matchesLink(kept: ExperimentSpec, link: ExperimentSpec): boolean {
  if (!sameExperiment(kept, link) || link.runs.length === 0) return false;
  const byId = new Map(kept.runs.flatMap((r) => runAsWritten(r) ?? []).map((r) => [r.id, r]));
  return link.runs.every((r) => {
    const k = byId.get(r.id);
    return k !== undefined && sameRun(k, r, kept.seed);
  });
}

/**
 * When a link opened over a saved session resumes some of its runs (same settings: the same runs) and starts
 * the rest over, the steps differ from run to run ("runs at 0–11"): say which runs are which. null when none
 * resumed, or all did and not `evenIfAll` (a link that could not be read, whose "the default experiment was
 * loaded" would otherwise read as a fresh start).
 */
export function mixedStartLine(
  runs: readonly RunSpec[],
  resumed: ReadonlySet<string>,
  evenIfAll = false,
): string | null {
  const back = runs.filter((r) => resumed.has(r.id)).map((r) => r.label);
  const fresh = runs.filter((r) => !resumed.has(r.id)).map((r) => r.label);
  if (!back.length || (!fresh.length && !evenIfAll)) return null;
  const are = (n: number) => (n > 1 ? "are" : "is");
  const resumedPart =
    `${back.join(", ")} ${are(back.length)} this browser's saved run${back.length > 1 ? "s" : ""} with the same ` +
    `settings, resumed where ${back.length > 1 ? "they" : "it"} stopped`;
  if (!fresh.length) return `${resumedPart} (Reset restarts every run).`;
  return (
    `${resumedPart}; ${fresh.join(", ")} ${fresh.length > 1 ? "start" : "starts"} ` +
    "from the start model (Reset restarts every run)."
  );
}

/**
 * Lines for runs that start from the start model under a new label (`renamed`: run id → the label it was
 * opened with): a fork named in a link ("GRPO (fork @ 3)") that this browser has nothing saved of (`saved`:
 * the saved runs of this experiment) — a link carries settings, not weights; and forks saved here without a
 * checkpoint, and imported runs without one.
 */
export function startingOverLines(
  runs: readonly RunSpec[],
  renamed: ReadonlyMap<string, string>,
  saved: readonly SavedRun[],
): string[] {
  const savedIds = new Set(saved.map((r) => r.spec.id));
  const wasFork = (r: RunSpec) => FORK_SUFFIX.test(renamed.get(r.id) ?? "");
  const nowNamed = (r: RunSpec) => `${renamed.get(r.id)} (now “${r.label}”)`;
  const forks = runs.filter((r) => wasFork(r) && !savedIds.has(r.id)).map(nowNamed);
  const others = runs
    .filter((r) => renamed.has(r.id) && !(wasFork(r) && !savedIds.has(r.id)))
    .map((r) => `${renamed.get(r.id)} is now “${r.label}”: no ${wasFork(r) ? "fork" : "import"} any more`);
  return [
    ...(forks.length
      ? [
          `${forks.join(", ")} ${forks.length > 1 ? "were forks" : "was a fork"} of a run trained before this experiment opened ` +
            "(where its link was made, or in the experiment it was changed from); a link or a new experiment carries settings, " +
            "not weights, so here it starts from the start model like the other runs.",
        ]
      : []),
    ...(others.length ? [`${others.join("; ")}.`] : []),
  ];
}

/**
 * The notice when settings this browser saved are not valid in this version of the lab (a range tightened, a
 * setting renamed): the issues as a link's notice words them (`issues`, spec_check's), and which trained runs
 * start over with their settings reset (`saved`: the saved runs; `runs`: the runs as checked). At most `listed`
 * issues are named.
 */
export function resetSettingsLine(
  issues: readonly string[],
  saved: readonly SavedRun[],
  runs: readonly RunSpec[],
  listed = 3,
): string {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const over = saved
    .filter((s) => savedStep(s) > 0 && !s.comparison)
    .filter((s) => {
      const now = byId.get(s.spec.id);
      return !now || !sameRun(now, s.spec);
    })
    .map((s) => byId.get(s.spec.id)?.label ?? s.spec.label);
  const more = issues.length > listed ? `; and ${issues.length - listed} more` : "";
  const starts =
    over.length === 0
      ? ""
      : ` ${over.join(", ")} ${over.length > 1 ? "start" : "starts"} over with ${over.length > 1 ? "their" : "its"} settings reset.`;
  return (
    "Some settings saved by another version of the lab are not valid in this one and were reset to their " +
    `defaults: ${issues.slice(0, listed).map(issueText).join("; ")}${more}.${starts}`
  );
}
