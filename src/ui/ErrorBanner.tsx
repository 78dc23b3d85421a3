import { useApp } from "./store";

/** GPU errors and uncaught exceptions, shown at the top of the page until dismissed. */
export function ErrorBanner() {
  const errors = useApp((s) => s.errors);
  const lost = useApp((s) => s.gpu === "lost");
  const dismiss = useApp((s) => s.dismissErrors);
  if (errors.length === 0) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="error-banner">
      <div className="banner-body">
        <strong>{lost ? "The GPU device was lost." : "Something went wrong."}</strong>
        {lost && <span> Reload the page to get a new device; results so far stay on screen.</span>}
        <ul>
          {errors.map((e) => (
            <li key={e} className="mono">
              {e}
            </li>
          ))}
        </ul>
      </div>
      <button type="button" className="banner-close" aria-label="Dismiss" onClick={dismiss}>
        ×
      </button>
    </div>
  );
}
