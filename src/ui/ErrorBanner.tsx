import { useApp } from "./store";

/** What the banner says when the page's own device is lost: it only runs the System panel's checks. */
export const CHECKS_LOST = "The System panel's checks lost their GPU device.";
export const CHECKS_LOST_MORE =
  " Training runs on a GPU device of its own and is not affected. Run again in the System panel gets the checks a new device.";

/**
 * GPU errors and uncaught exceptions, shown at the top of the page until dismissed; and the loss of the page's
 * own device, which runs the System panel's checks only (the lab trains on the worker's, recovered by itself).
 */
export function ErrorBanner() {
  const errors = useApp((s) => s.errors);
  const lost = useApp((s) => s.lostShown);
  const dismiss = useApp((s) => s.dismissErrors);
  return <ErrorBannerView errors={errors} lost={lost} dismiss={dismiss} />;
}

/**
 * The banner for `errors` and the page's device `lost` (nothing when neither). With errors it is an alert in the
 * error style; the page's device lost alone is news, not a failure (training goes on): a polite status in the
 * warning style (`banner-warn`).
 */
export function ErrorBannerView(props: { errors: readonly string[]; lost: boolean; dismiss: () => void }) {
  const { errors, lost, dismiss } = props;
  if (errors.length === 0 && !lost) return null;
  const failed = errors.length > 0;
  return (
    <div
      className={failed ? "banner banner-error" : "banner banner-warn"}
      role={failed ? "alert" : "status"}
      data-testid="error-banner"
    >
      <div className="banner-body">
        {lost && (
          <p>
            <strong>{CHECKS_LOST}</strong>
            {CHECKS_LOST_MORE}
          </p>
        )}
        {failed && <strong>Something went wrong.</strong>}
        {failed && (
          <ul>
            {errors.map((e) => (
              <li key={e} className="mono">
                {e}
              </li>
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="banner-close" aria-label="Dismiss" onClick={dismiss}>
        ×
      </button>
    </div>
  );
}
