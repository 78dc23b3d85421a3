/**
 * "What each knob does": an algorithm's own field table (src/algorithms/fields.ts), not a second copy of the
 * docs. Each knob shows its label, the field's doc, then range or options, default, source and TRL name (the
 * same lines as the run card's knob tooltips), and the run's current value when it differs from the default.
 * The shared sampling and optimiser fields fold away below, as on the run card.
 */

import { useMemo } from "react";
import { COMMON_FIELDS, type Field } from "../../algorithms/fields";
import { trlNames } from "../../lab/export/trl_names";
import type { SettingValue } from "../../lab/protocol";
import { ALGORITHMS, type AlgoId } from "../../lab/registry";
import { formatSetting, hintLines } from "../lab/knobs";

const COMMON_KEYS = new Set(COMMON_FIELDS.map((f) => f.key));

function Knob({ field, value, trl }: { field: Field; value?: SettingValue; trl?: string }) {
  const [doc, ...facts] = hintLines(field, trl);
  const changed = value !== undefined && value !== field.default;
  return (
    <li className="explain-knob" data-testid={`explain-knob-${field.key}`}>
      <div className="explain-knob-head">
        <span className="explain-knob-label">{field.label}</span>
        {field.key !== field.label && <code className="explain-knob-key">{field.key}</code>}
        {changed && (
          <span className="explain-knob-value" data-testid={`explain-knob-value-${field.key}`}>
            this run: {formatSetting(field, value)}
          </span>
        )}
      </div>
      <p className="explain-knob-doc">{doc.text}</p>
      <p className="explain-knob-facts">
        {facts.map((f) => (
          <span key={f.label}>
            <span className="explain-fact-label">{f.label}</span> {f.text}
          </span>
        ))}
      </p>
    </li>
  );
}

/**
 * The knobs of `algo`'s fields; `config` (a run's overrides) adds "this run: …" where a value differs, and
 * each knob names TRL's keyword for the class the settings map to (trl_names.ts).
 */
export function KnobList({ algo, config }: { algo: AlgoId; config?: Record<string, SettingValue> }) {
  const fields = ALGORITHMS[algo].fields;
  const trl = useMemo(() => trlNames(algo, config ?? {}), [algo, config]);
  const own = fields.filter((f) => !COMMON_KEYS.has(f.key));
  const shared = fields.filter((f) => COMMON_KEYS.has(f.key));
  const item = (f: Field) => <Knob key={f.key} field={f} value={config?.[f.key]} trl={trl[f.key]} />;
  return (
    <>
      <ul className="explain-knobs">{own.map(item)}</ul>
      <details className="explain-knobs-more">
        <summary>Sampling &amp; optimiser ({shared.length})</summary>
        <ul className="explain-knobs">{shared.map(item)}</ul>
      </details>
    </>
  );
}
