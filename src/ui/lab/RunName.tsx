/**
 * A run's name on its card, renamed in place: the pencil (or a double click on the name) turns it into a text
 * field; Enter or leaving the field keeps the new name, Escape the old one. A refused name (empty, too long,
 * another run's) says why under the field and keeps it open.
 */
import { useEffect, useRef, useState } from "react";
import { MAX_LABEL } from "../../lab/settings";
import { errorMessage } from "../../util/errors";
import { labActions } from "./actions";

interface Props {
  runId: string;
  label: string;
  /** The name's hover text (a fork's fork point). */
  title: string;
  disabled: boolean;
}

export function RunName({ runId, label, title, disabled }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const pencil = useRef<HTMLButtonElement>(null);
  // Closed from the keyboard (Enter, Escape): the focus goes back to the pencil, not to the page's top.
  const refocus = useRef(false);
  useEffect(() => {
    if (draft !== null || !refocus.current) return;
    refocus.current = false;
    pencil.current?.focus();
  }, [draft]);
  const close = (fromKey = false) => {
    refocus.current = fromKey;
    setDraft(null);
    setProblem(null);
  };
  const commit = async (fromKey = false) => {
    if (draft === null) return;
    if (draft.trim() === label) return close(fromKey);
    try {
      await labActions.renameRun(runId, draft);
      close(fromKey);
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };
  if (draft === null)
    return (
      <>
        <h3 title={title} onDoubleClick={() => !disabled && setDraft(label)}>
          {label}
        </h3>
        <button
          ref={pencil}
          type="button"
          className="icon-button run-rename"
          title="Rename this run (the name shows in the legend, the link and exports)"
          aria-label={`Rename ${label}`}
          data-testid={`rename-${runId}`}
          disabled={disabled}
          onClick={() => setDraft(label)}
        >
          ✎
        </button>
      </>
    );
  return (
    <span className="run-rename-box">
      <input
        className="run-rename-input"
        data-testid={`rename-input-${runId}`}
        aria-label={`New name for ${label}`}
        aria-invalid={problem !== null}
        aria-describedby={problem ? `rename-problem-${runId}` : undefined}
        value={draft}
        maxLength={MAX_LABEL * 2}
        // biome-ignore lint/a11y/noAutofocus: the field opens on the user's click, to be typed in at once
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => {
          setDraft(e.currentTarget.value);
          setProblem(null);
        }}
        onKeyDown={(e) => {
          if (e.key !== "Enter" && e.key !== "Escape") return;
          // No keypress after it: the pencil, focused again, would take Enter's keypress as a click and reopen.
          e.preventDefault();
          if (e.key === "Enter") void commit(true);
          else close(true);
        }}
        onBlur={() => void commit()}
      />
      {problem && (
        <span
          className="run-rename-problem"
          role="alert"
          id={`rename-problem-${runId}`}
          data-testid={`rename-problem-${runId}`}
        >
          {problem}
        </span>
      )}
    </span>
  );
}
