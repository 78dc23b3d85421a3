import { Credits } from "./Credits";
import { ErrorBanner } from "./ErrorBanner";
import { Header } from "./Header";
import { LabView } from "./lab/LabView";
import { SkipLinks } from "./lab/SkipLinks";
import { NoWebGpu } from "./NoWebGpu";
import { SelfTestWarning } from "./SelfTestWarning";
import { SystemPanel } from "./SystemPanel";
import { useApp } from "./store";

export function App() {
  const unavailable = useApp((s) => s.unavailable);
  const hasGpu = useApp((s) => s.adapter !== null);
  return (
    <div className="page">
      {hasGpu && !unavailable && <SkipLinks />}
      <Header />
      <ErrorBanner />
      <SelfTestWarning />
      <main>
        {unavailable ? (
          <NoWebGpu unavailable={unavailable} />
        ) : (
          <>
            {hasGpu ? (
              <LabView />
            ) : (
              <p className="muted" data-testid="gpu-pending">
                <span className="spinner" aria-hidden="true" /> Requesting a WebGPU adapter…
              </p>
            )}
            <SystemPanel defaultOpen={!hasGpu} />
          </>
        )}
      </main>
      <Credits />
    </div>
  );
}
