import { ErrorBanner } from "./ErrorBanner";
import { Header } from "./Header";
import { NoWebGpu } from "./NoWebGpu";
import { SelfTestCard } from "./SelfTestCard";
import { SystemCard } from "./SystemCard";
import { useApp } from "./store";

export function App() {
  const unavailable = useApp((s) => s.unavailable);
  return (
    <div className="page">
      <Header />
      <ErrorBanner />
      <main>
        {unavailable ? (
          <NoWebGpu unavailable={unavailable} />
        ) : (
          <>
            <div className="grid">
              <SystemCard />
              <SelfTestCard />
            </div>
            <p className="coming muted">
              What's coming: small GPT models and PPO, DPO and GRPO runs with live charts. This page checks
              that your GPU can run the lab's kernels correctly first.
            </p>
          </>
        )}
      </main>
    </div>
  );
}
