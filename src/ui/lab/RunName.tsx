/**
 * A run's name on its card, renamed in place: the pencil (or a double click on the name) turns it into a text
 * field; Enter or leaving the field keeps the new name, Escape the old one. A refused name (empty, too long,
 * another run's) says why under the field and keeps it open.
 */
import { useState } from "react";
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
  const close = () => {
    setDraft(null);
    setProblem(null);
  };
  const commit = async () => {
    if (draft === null) return;
    if (draft.trim() === label) return close();
    try {
      await labActions.renameRun(runId, draft);
      close();
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
          if (e.key === "Enter") void commit();
          if (e.key === "Escape") close();
        }}
        onBlur={() => void commit()}
      />
      {problem && (
        <span className="run-rename-problem" role="alert" data-testid={`rename-problem-${runId}`}>
          {problem}
        </span>
      )}
    </span>
  );
}
