import { labOnlyNote } from "./lab_only_note";

/**
 * The hover/focus card of a metric (chart titles, the all-metrics table): its title, TRL name (or a note that
 * the lab logs it and TRL does not) and definition.
 */
export function MetricCard({
  title,
  metric,
  shownAs,
  doc,
}: {
  title?: string;
  metric?: string;
  /** The name the card's anchor shows, where it is not `metric` (the CSV's samples_step for samples). */
  shownAs?: string;
  doc: string;
}) {
  const note = metric ? labOnlyNote(metric) : null;
  return (
    <div className="field-card metric-card">
      {(title || metric) && (
        <p className="field-card-title">
          {title && <strong>{title}</strong>} {metric && <code>{shownAs ?? metric}</code>}
          {note && <span className="muted"> · {note}</span>}
        </p>
      )}
      <p className="metric-card-doc">{doc}</p>
    </div>
  );
}
