/**
 * Opens the explain panel (./ExplainDialog.tsx, loaded on first use so KaTeX stays out of the main bundle).
 * On a run card it explains the run's algorithm with the run's settings; next to the run picker it opens the
 * algorithm guide with an "add a run" button.
 */
import "./explain_button.css";
import { type ReactNode, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { SettingValue } from "../../lab/protocol";
import type { AlgoId } from "../../lab/registry";
import { errorMessage } from "../../util/errors";
import { ExplainWait } from "./ExplainWait";

type Dialog = typeof import("./ExplainDialog")["default"];
let loaded: Dialog | null = null;
let pending: Promise<Dialog> | null = null;

/**
 * The panel's code (KaTeX with it): out of the main bundle, fetched once the lab is up ({@link prefetchExplain})
 * or at the first open. A failed fetch is shown in the panel's place (./ExplainWait.tsx) — React.lazy let it
 * reach the page's crash card, which stopped the training — and asked again at the next open (the bundler's
 * preloader keeps a failed stylesheet, so after a failed fetch it takes a reload).
 */
function loadDialog(): Promise<Dialog> {
  pending ??= import("./ExplainDialog").then(
    (m) => {
      loaded = m.default;
      return m.default;
    },
    (e: unknown) => {
      pending = null;
      throw e;
    },
  );
  return pending;
}

/**
 * Fetch the panel's code now, while the network is there (called once the lab is ready, when the page is idle):
 * a student who goes offline later, or a new version deployed meanwhile, still gets the explanations. Never
 * throws (a failure is shown when a panel opens).
 */
export function prefetchExplain(): void {
  loadDialog().then(
    () => {
      // The formulas' fonts too (the panel's stylesheet declares them; a browser fetches a face at first use).
      for (const face of KATEX_FACES) document.fonts?.load(face).catch(() => {});
    },
    () => {},
  );
}

/** The KaTeX faces the panels' formulas use (CSS font shorthands for document.fonts.load). */
const KATEX_FACES = [
  "1em KaTeX_Main",
  "bold 1em KaTeX_Main",
  "italic 1em KaTeX_Math",
  "1em KaTeX_Size1",
  "1em KaTeX_Size2",
  "1em KaTeX_AMS",
  "1em KaTeX_Caligraphic",
  "1em KaTeX_Typewriter",
];

export function ExplainButton({
  algo,
  config,
  runLabel,
  onAdd,
  addDisabled,
  className,
  title,
  testId,
  children,
}: {
  algo: AlgoId;
  config?: Record<string, SettingValue>;
  runLabel?: string;
  onAdd?: (algo: AlgoId) => void;
  /** The add button is off: true, or why (its title). */
  addDisabled?: boolean | string;
  className?: string;
  /** Tooltip and accessible name. */
  title: string;
  testId?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  // A component is a function: useState would call it as an initializer, hence the wrapper.
  const [ExplainDialog, setDialog] = useState<Dialog | null>(() => loaded);
  const [problem, setProblem] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const show = () => {
    setOpen(true);
    setProblem(null);
    loadDialog().then(
      (d) => setDialog(() => d),
      (e: unknown) => setProblem(errorMessage(e)),
    );
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className={className}
        title={title}
        aria-label={title}
        aria-haspopup="dialog"
        data-testid={testId}
        onClick={show}
      >
        {children}
      </button>
      {open &&
        createPortal(
          ExplainDialog ? (
            <ExplainDialog
              algo={algo}
              config={config}
              runLabel={runLabel}
              onAdd={onAdd}
              addDisabled={addDisabled}
              onClose={close}
            />
          ) : (
            <ExplainWait problem={problem} onClose={close} />
          ),
          document.body,
        )}
    </>
  );
}
