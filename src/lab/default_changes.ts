/**
 * Defaults that changed meaning, and the settings revision that dates what the lab writes. Links, saved
 * experiments and run files keep a run's settings only where they differ from the defaults (RunSpec.config), so
 * a default that changes would silently change every run written before that left the setting alone. Each of
 * them now carries SETTINGS_REVISION (a link's `d`, a saved experiment's `d`, a run file's `settingsRevision`):
 * read at an older revision, a run gets the setting's value of then, written out (`migrateRun`); read without one
 * (written before revisions were kept, on 2026-12-07), the lab cannot tell which default it was written under, so
 * where the two would train differently it says so and how to get the old behaviour (`revisionNote`).
 */
import type { AlgoId } from "./algo_ids";
import type { RunSpec, SettingValue } from "./protocol";
import { roundedSetting } from "./setting_text";

/** The settings tables' revision: raised with each entry of {@link DEFAULT_CHANGES}. */
export const SETTINGS_REVISION = 2;

/** What a changed default, or a value's changed meaning, did to a run, and how to undo it. */
interface ChangeText {
  /** What it meant before: "ε_high's default was 0.2 (now 0, which follows ε)". */
  why: string;
  /** What it means for run `label` (its settings `config`): "GRPO now clips the ratio above at 1.1, not 1.2". */
  note(label: string, config: Readonly<Record<string, SettingValue>>): string;
  /** How to train as before, for `runs` runs: "set ε_high to 0.2 on its card". */
  fix(runs: number): string;
}

/** A default that changed: `key`'s default in `algos` was `before` up to revision `revision − 1`. */
export interface DefaultChange extends ChangeText {
  /** The first revision with the new default. */
  revision: number;
  /** When the lab changed it (a date, for the notice). */
  changed: string;
  algos: readonly AlgoId[];
  key: string;
  before: SettingValue;
  /** Whether a run's settings `config` (without `key`) train differently under the old default and the new. */
  differs(config: Readonly<Record<string, SettingValue>>): boolean;
  /** A value set explicitly that meant something else before (nothing today writes it the old way). */
  old?: ChangeText & { value: SettingValue };
}

/** GRPO's (and Safe RLHF's) ε: its default, for runs that leave it alone. */
const EPSILON_DEFAULT = 0.2;

/** 1 + ε of a run's settings ("1.1"). */
const upper = (c: Readonly<Record<string, SettingValue>>) =>
  roundedSetting(1 + Number(c.epsilon ?? EPSILON_DEFAULT), 6);

/** "its card", "their cards". */
const cards = (n: number) => (n > 1 ? "their cards" : "its card");

export const DEFAULT_CHANGES: readonly DefaultChange[] = [
  {
    // Commit 984f00c: ε_high = 0 follows ε (the spec's and TRL's epsilon_high = None); it was a fixed 0.2.
    revision: 2,
    changed: "3 Dec 2026",
    algos: ["grpo", "safe_rlhf"],
    key: "epsilonHigh",
    before: 0.2,
    differs: (c) => (c.epsilon ?? EPSILON_DEFAULT) !== 0.2,
    why: "ε_high's default was 0.2 (now 0, which follows ε)",
    note: (label, c) => `${label} now clips the ratio above at 1 + ε = ${upper(c)}, not 1.2`,
    fix: (n) => `to train as ${n > 1 ? "they" : "it"} did then, set ε_high to 0.2 on ${cards(n)}`,
    old: {
      // It meant an upper clip at exactly 1 (no ratio above 1); today 0 follows ε, and the range starts at 0.
      value: 0,
      why: "ε_high = 0 kept the ratio from rising above 1 (now 0 follows ε)",
      note: (label, c) => `${label} now clips the ratio above at 1 + ε = ${upper(c)}, not 1`,
      fix: (n) => `for nearly the old clip, set ε_high to a small value such as 0.001 on ${cards(n)}`,
    },
  },
];

/** The revision a payload's field gives: a whole number ≥ 1, else undefined (none kept, or not one). */
export function revisionOf(raw: unknown): number | undefined {
  return typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 1 ? raw : undefined;
}

/** Whether `spec` left `change`'s setting to its default (so its meaning moved with it). */
const leftAlone = (spec: RunSpec, change: DefaultChange) =>
  change.algos.includes(spec.algo) && !(change.key in spec.config);

/**
 * `spec` as written at settings revision `revision`, under today's defaults: each setting it left to a default
 * that has changed since is written out with its value then. Unchanged (the same object) at this revision, a
 * newer one, or an unknown one (undefined: {@link revisionNote} says what may differ).
 */
export function migrateRun(spec: RunSpec, revision: number | undefined): RunSpec {
  if (revision === undefined) return spec;
  const since = DEFAULT_CHANGES.filter((c) => c.revision > revision && leftAlone(spec, c));
  if (since.length === 0) return spec;
  return { ...spec, config: { ...spec.config, ...Object.fromEntries(since.map((c) => [c.key, c.before])) } };
}

/**
 * A run read from outside (`raw`: a link's, a run file's) under today's defaults, for the check: the settings
 * {@link migrateRun} writes out for it (`written`: the run as written, its bad values left out: spec_check.ts
 * runAsWritten) added to its own where it sets none. Its own values go to the check as they are, so that the check
 * still names a bad label or value; `raw` itself when nothing is added.
 */
export function migrateRaw(raw: unknown, written: RunSpec | null, revision: number | undefined): unknown {
  const migrated = written && migrateRun(written, revision);
  if (!migrated || migrated === written || typeof raw !== "object" || raw === null) return raw;
  // runAsWritten read it: its config is a record, or none.
  const own = ((raw as { config?: unknown }).config ?? {}) as Record<string, unknown>;
  const added = Object.entries(migrated.config).filter(([key]) => !Object.hasOwn(own, key));
  return added.length ? { ...raw, config: { ...own, ...Object.fromEntries(added) } } : raw;
}

/**
 * The notice's sentences for runs read at `revision` ({@link migrateRun} applied), `what` naming where they came
 * from ("This link", "The saved experiment", "This run file"), or null when nothing may differ. Without a
 * revision: each run whose setting left at a changed default trains differently under the old one. Without one
 * or at an older one: each run that sets a value whose meaning changed (ε_high = 0). At a newer revision than
 * this lab's: it may use defaults this version does not know.
 */
export function revisionNote(
  runs: readonly RunSpec[],
  revision: number | undefined,
  what: string,
): string | null {
  if (revision !== undefined && revision > SETTINGS_REVISION)
    return `${what} was made by a newer version of the lab (settings revision ${revision}; this one knows ${SETTINGS_REVISION}): a setting left at its default there may have another default here.`;
  const known = revision !== undefined;
  const sentences = DEFAULT_CHANGES.flatMap((c) => {
    if (known && c.revision <= revision) return [];
    // A value set the old way: its meaning moved whatever the revision (migrateRun cannot write it out).
    const told = c.old;
    const old = told ? runs.filter((r) => c.algos.includes(r.algo) && r.config[c.key] === told.value) : [];
    const left = known ? [] : runs.filter((r) => leftAlone(r, c) && c.differs(r.config));
    const said = (text: ChangeText | undefined, those: RunSpec[]) =>
      text && those.length > 0
        ? [
            `${known ? "Made" : "If it was made"} before ${c.changed}, when ${text.why}: ` +
              `${those.map((r) => text.note(r.label, r.config)).join("; ")}; ${text.fix(those.length)}.`,
          ]
        : [];
    return [...said(told, old), ...said(c, left)];
  });
  if (sentences.length === 0) return null;
  const lead = known
    ? `${what} was made by an earlier version of the lab.`
    : `${what} does not say which version of the lab made it.`;
  return [lead, ...sentences].join(" ");
}
