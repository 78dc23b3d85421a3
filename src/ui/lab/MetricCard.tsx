/** The hover/focus card of a metric (chart titles, the all-metrics table): its title, TRL name and definition. */
export function MetricCard({ title, metric, doc }: { title?: string; metric?: string; doc: string }) {
  return (
    <div className="field-card metric-card">
      {(title || metric) && (
        <p className="field-card-title">
          {title && <strong>{title}</strong>} {metric && <code>{metric}</code>}
        </p>
      )}
      <p className="metric-card-doc">{doc}</p>
    </div>
  );
}
