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
import { type Dialog, loadDialog, loadedDialog } from "./explain_loader";

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
  const [ExplainDialog, setDialog] = useState<Dialog | null>(loadedDialog);
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
