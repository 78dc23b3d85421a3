/**
 * Python source helpers for the TRL script export: literals, comments, file-name slugs and the config call
 * built from a {@link TrlMapping}.
 */
import type { Field } from "../../algorithms/fields";
import type { SettingValue } from "../protocol";
import { settingNumber } from "../setting_text";
import type { TrlMapping } from "./trl_targets";
import { TRL_VERSIONED } from "./trl_versions";

/** A Python literal of a setting value. */
export function pyValue(v: SettingValue): string {
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return JSON.stringify(v);
  // Below 1e-3 as exponents, as the papers and TRL's docs write learning rates (3e-4; Python reads it as is).
  return Number.isInteger(v) ? String(v) : settingNumber(v).replace(/^(-?)\./, "$10.");
}

/** One line of a comment, without line breaks. */
export const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** Greek letters spelled out in slugs (the papers' symbols in run names: "PPO β = 0" vs "PPO α"). */
const GREEK: Record<string, string> = Object.fromEntries(
  "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma sigma tau upsilon phi chi psi omega"
    .split(" ")
    .map((name, i) => [String.fromCodePoint(0x3b1 + i), `-${name}-`]),
);

/**
 * A file-name-safe ASCII slug of a label, Greek letters spelled out so that two runs named by their symbols get
 * two names: "GRPO (β = 0)" → "grpo-beta-0", "PPO α" → "ppo-alpha"; "run" when nothing is left.
 */
export function slug(label: string): string {
  const s = label
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u03b1-\u03c9]/g, (c) => GREEK[c] ?? "-")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s || "run";
}

/** "beta (β)", or just "lr" when the label is the key. */
const fieldName = (f: Field) => (f.label === f.key ? f.key : `${f.key} (${f.label})`);

/**
 * `config = <Class>(…)` with the mapped settings, each with a comment (field, meaning, lab default when changed,
 * mapping note), then the lab settings the class has no keyword for as comments. A keyword only some TRL
 * versions have (TRL_VERSIONED) is set after the call, only where the installed class has it. `indent` prefixes
 * every line (a config built inside a loop).
 */
export function configCall(m: TrlMapping, extra: string[], indent = ""): string {
  const lines = [
    `config = ${m.target.config}(`,
    "    output_dir=OUTPUT_DIR,",
    "    seed=SEED,",
    "    logging_steps=1,",
    '    report_to="none",',
    ...extra.map((e) => `    ${e},`),
  ];
  const cls = m.target.config;
  const versioned = (cls && TRL_VERSIONED[cls]) || {};
  const later: string[] = [];
  for (const a of m.args) {
    const what = a.field ? `${fieldName(a.field)}: ${a.field.doc}` : "";
    const changed =
      a.changed && a.field ? ` The algorithm's default in the lab: ${pyValue(a.field.default)}.` : "";
    const note = a.note ? ` ${a.note}.` : "";
    const comment = oneLine(`${what}${changed}${note}`);
    const v = versioned[a.name];
    if (v) {
      later.push(
        `if "${a.name}" in ${cls}.__dataclass_fields__:  # ${v.has}`,
        `    config.${a.name} = ${pyValue(a.value)}  # ${comment}`,
      );
      if (v.without && a.value !== 0) later.push("else:", `    print(${JSON.stringify(v.without)})`);
    } else lines.push(`    ${a.name}=${pyValue(a.value)},  # ${comment}`);
  }
  lines.push(")", ...later);
  if (m.unmapped.length) {
    lines.push(
      `# Lab settings with no keyword in ${m.target.config} (TRL uses its own behaviour unless the note says this script applies it):`,
    );
    for (const u of m.unmapped)
      lines.push(`#   ${u.field.key} = ${pyValue(u.value)}: ${oneLine(`${u.field.doc} (${u.reason})`)}`);
  }
  return lines.map((l) => indent + l).join("\n");
}
