import { labOnly } from "./metric_info";

/**
 * The hover/focus card of a metric (chart titles, the all-metrics table): its title, TRL name (or a note that
 * the lab logs it and TRL does not) and definition.
 */
export function MetricCard({ title, metric, doc }: { title?: string; metric?: string; doc: string }) {
  return (
    <div className="field-card metric-card">
      {(title || metric) && (
        <p className="field-card-title">
          {title && <strong>{title}</strong>} {metric && <code>{metric}</code>}
          {metric && labOnly(metric) && <span className="muted"> · the lab's own, not a TRL metric</span>}
        </p>
      )}
      <p className="metric-card-doc">{doc}</p>
    </div>
  );
}
