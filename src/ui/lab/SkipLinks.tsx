/**
 * Skip links: the page's first tab stops, hidden until focused, that move keyboard focus past the top bar and
 * the run cards (about 130 controls) straight to the charts, the samples or the runs. Buttons, not `#id`
 * links, because the URL's hash holds the experiment (url_sync.ts) and must not change.
 */
import "./skip_links.css";

const TARGETS = [
  { id: "lab-charts", name: "charts" },
  { id: "lab-samples", name: "samples" },
  { id: "lab-runs", name: "runs" },
] as const;

/** Focus the element with this id (it carries tabIndex −1) and scroll it to the top of the window. */
export function skipTo(id: string): boolean {
  const el = document.getElementById(id);
  if (!el) return false;
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "start" });
  return true;
}

export function SkipLinks() {
  return (
    <nav className="skip-links" aria-label="Skip links" data-testid="skip-links">
      {TARGETS.map((t) => (
        <button key={t.id} type="button" onClick={() => skipTo(t.id)}>
          Skip to {t.name}
        </button>
      ))}
    </nav>
  );
}
