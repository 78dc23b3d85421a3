/**
 * A run's mid-run setting changes as the exports write them: the markers that tell of a setting changed between
 * steps (resume markers — a lost GPU, a rewind — train on with the same settings and are left out), one entry
 * per changed key. A marker saved before markers kept their structured changes (Marker.changes) gives one entry
 * with its step and label only. Used by the metrics CSV's `settings_changed` column, config.json's `changes`,
 * the TRL script's header comment and the Share note.
 */
import { isResumeMarker, type Marker, type MarkerChange, type SettingValue } from "../protocol";

/** One change in config.json's `changes`: from `step` on, `key` went `from` → `to`; `label` says it ("β 0.2 → 0.5"). */
export interface RunChange {
  step: number;
  /** Absent (with `from`, `to`) for a marker saved before 2027-01, which kept its label only. */
  key?: string;
  from?: SettingValue;
  to?: SettingValue;
  label: string;
}

/** The markers that tell of setting changes (not resumes), in step order. */
export function changeMarkers(markers: readonly Marker[] | undefined): Marker[] {
  return (markers ?? []).filter((m) => !isResumeMarker(m.label)).sort((a, b) => a.step - b.step);
}

/** The run's changes, one per key (a label-only marker: one per marker), in step order. */
export function runChanges(markers: readonly Marker[] | undefined): RunChange[] {
  return changeMarkers(markers).flatMap((m): RunChange[] =>
    m.changes?.length
      ? m.changes.map((c) => ({ step: m.step, key: c.key, from: c.from, to: c.to, label: c.label }))
      : [{ step: m.step, label: m.label }],
  );
}

/** "β 0.2 → 0.5 at step 2; lr 1e-4 → 3e-5 at step 5" ("" when none). */
export function changesText(markers: readonly Marker[] | undefined): string {
  return changeMarkers(markers)
    .map((m) => `${m.label} at step ${m.step}`)
    .join("; ");
}

/**
 * Each run with changes as "<label>: <changesText>", joined with "; " ("" when no run has any):
 * "PPO β = 0.2: β 0.2 → 0.5 at step 2".
 */
export function runsChangesText(runs: readonly { label: string; markers?: readonly Marker[] }[]): string {
  return runs
    .map((r) => [r.label, changesText(r.markers)] as const)
    .filter(([, t]) => t.length > 0)
    .map(([label, t]) => `${label}: ${t}`)
    .join("; ");
}

/** The CSV's `settings_changed` cell of each step that has one: step → the marker labels of that step. */
export function changeCells(markers: readonly Marker[] | undefined): Map<number, string> {
  const cells = new Map<number, string>();
  for (const m of changeMarkers(markers)) {
    const had = cells.get(m.step);
    cells.set(m.step, had ? `${had}, ${m.label}` : m.label);
  }
  return cells;
}

/** A structured change read from a file, or null when it is not one (import trusts nothing). */
export function readMarkerChange(raw: unknown): MarkerChange | null {
  if (typeof raw !== "object" || raw === null) return null;
  const c = raw as Record<string, unknown>;
  const value = (v: unknown) =>
    typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
  if (typeof c.key !== "string" || typeof c.label !== "string" || !value(c.from) || !value(c.to)) return null;
  return {
    key: c.key.slice(0, 100),
    from: c.from as SettingValue,
    to: c.to as SettingValue,
    label: c.label.slice(0, 200),
  };
}
