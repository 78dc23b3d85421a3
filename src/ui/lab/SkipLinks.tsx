/**
 * Skip links: the page's first tab stops, hidden until focused, that move keyboard focus past the top bar and
 * the run cards (about 130 controls) straight to the charts, the samples or the runs. Buttons, not `#id`
 * links, because the URL's hash holds the experiment (url_sync.ts) and must not change.
 */
import "./skip_links.css";
import { skipTo } from "./skip_to";
import { ONE_COLUMN_QUERY, useMediaQuery } from "./use_media_query";

const CHARTS = { id: "lab-charts", name: "charts" };
const SAMPLES = { id: "lab-samples", name: "samples" };
const RUNS = { id: "lab-runs", name: "runs" };
/** The three places in the order the eye takes them (two columns: the charts, the samples under them, the run
 * cards on the left; one column: the charts, then the run cards, then the samples). */
const TARGETS = [CHARTS, SAMPLES, RUNS];
const ONE_COLUMN_TARGETS = [CHARTS, RUNS, SAMPLES];

export function SkipLinks() {
  const oneColumn = useMediaQuery(ONE_COLUMN_QUERY);
  return (
    <nav className="skip-links" aria-label="Skip links" data-testid="skip-links">
      {(oneColumn ? ONE_COLUMN_TARGETS : TARGETS).map((t) => (
        <button key={t.id} type="button" onClick={() => skipTo(t.id)}>
          Skip to {t.name}
        </button>
      ))}
    </nav>
  );
}
