/** Entry point: theme, global error hooks, React root, then the GPU start-up (boot.ts). */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./ui/App";
import { boot } from "./ui/boot";
import { ErrorBoundary } from "./ui/ErrorBoundary";
import { useApp } from "./ui/store";
import { applyTheme, printInLight, storedTheme, systemTheme } from "./ui/theme";
import "./ui/styles.css";
import "./ui/system.css";
import "./ui/banner.css";
import "./ui/no_webgpu.css";
import "./ui/print.css";
import "./ui/forced_colors.css";
import { errorMessage } from "./util/errors";

applyTheme(storedTheme() ?? systemTheme());
printInLight();

// Errors outside React's render (async handlers, promises) go to the banner, never silently to the console.
window.addEventListener("error", (e) => useApp.getState().reportError(e.message || String(e.error)));
window.addEventListener("unhandledrejection", (e) => {
  const r = e.reason;
  useApp.getState().reportError(errorMessage(r));
});

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);

boot().catch((e) => useApp.getState().reportError(errorMessage(e)));
