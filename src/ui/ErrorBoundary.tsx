import { Component, type ErrorInfo, type ReactNode } from "react";
import { openAddress } from "./lab/embedded";
import { askSafeStart } from "./lab/safe_start";
import { notDownloaded } from "./not_downloaded";

interface State {
  error: Error | null;
}

/** The last line of defence: a render error shows its message and stack instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("RLHF Playground crashed while rendering:", error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <main className="page" data-testid="crash">
        <section className="card card-error">
          <h2>The page crashed</h2>
          {notDownloaded(error) ? (
            <p data-testid="crash-download">
              A part of the page could not be downloaded: the lab was updated on its server since this page
              opened, or the network is down. Reload the page to get the current version; what broke:
            </p>
          ) : (
            <p>
              A bug in the lab stopped the page from rendering. Reloading usually helps; if it does not, this
              is what broke:
            </p>
          )}
          <pre className="mono">{error.stack ?? `${error.name}: ${error.message}`}</pre>
          <div className="crash-actions">
            <button type="button" onClick={() => location.reload()}>
              Reload
            </button>
            <button
              type="button"
              data-testid="safe-start"
              onClick={() => {
                // The saved runs go to Recent experiments (src/ui/lab/safe_start.ts); the default experiment opens.
                askSafeStart();
                openAddress(location.pathname + location.search); // embedded: no entry in the host's history
              }}
            >
              Start without the saved runs
            </button>
          </div>
          <p className="muted">
            If Reload crashes again, start without the saved runs: they stay in this browser, under Change… →
            Recent experiments.
          </p>
        </section>
      </main>
    );
  }
}
