/**
 * The explain panel: a modal drawer (native <dialog>, so Esc closes it, focus stays inside and returns to the
 * opener) with one algorithm's explanation: summary, a few paragraphs, what it needs, its objective typeset
 * by KaTeX, its knobs (from the field table) and the papers. Tabs switch between the registry's algorithms.
 * Loaded lazily (KaTeX and its CSS stay out of the main bundle until a panel opens).
 */
import "katex/dist/katex.min.css";
import "./explain.css";
import { useEffect, useId, useRef, useState } from "react";
import type { SettingValue } from "../../lab/protocol";
import { ALGO_IDS, ALGORITHMS, type AlgoId } from "../../lab/registry";
import { CloseIcon } from "../lab/icons";
import { useModalDialog } from "../use_modal_dialog";
import { CopyBibtex } from "./CopyBibtex";
import { EXPLANATIONS } from "./content";
import { KnobList } from "./KnobList";
import { MathText, Tex } from "./Tex";

export interface ExplainDialogProps {
  /** The algorithm shown first. */
  algo: AlgoId;
  /** A run's settings overrides (for `algo` only): the knob list marks values that differ from the default. */
  config?: Record<string, SettingValue>;
  /** The run's label, when opened from a run card. */
  runLabel?: string;
  onClose(): void;
  /** When set (opened from the run picker), a footer button adds a run of the shown algorithm. */
  onAdd?: (algo: AlgoId) => void;
  /** The add button is off: true, or why (its title). */
  addDisabled?: boolean | string;
}

export default function ExplainDialog({
  algo,
  config,
  runLabel,
  onClose,
  onAdd,
  addDisabled,
}: ExplainDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const [shown, setShown] = useState<AlgoId>(algo);
  const titleId = useId();
  useModalDialog(ref, onClose);
  useEffect(() => closeButton.current?.focus(), []);
  const show = (id: AlgoId) => {
    setShown(id);
    body.current?.scrollTo?.({ top: 0 });
  };
  const info = ALGORITHMS[shown];
  const ex = EXPLANATIONS[shown];
  return (
    <dialog
      ref={ref}
      className="explain"
      aria-labelledby={titleId}
      data-testid="explain-panel"
      data-algo={shown}
    >
      <header className="explain-head">
        <div>
          <span className="eyebrow">
            {runLabel && shown === algo && runLabel !== info.title ? (
              <>
                {/* A run's name keeps its case: "β = 0" or "lr 1e-5" in capitals would read "B = 0", "1E-5". */}
                <span className="eyebrow-name">{runLabel}</span> · how it works
              </>
            ) : (
              "How it works"
            )}
          </span>
          <h2 id={titleId} data-testid="explain-title">
            {info.title}
          </h2>
          <p className="explain-summary">
            <MathText text={ex.summary} />
          </p>
        </div>
        <button
          type="button"
          className="icon-button explain-close"
          aria-label="Close the explanation (Esc)"
          title="Close (Esc)"
          data-testid="explain-close"
          ref={closeButton}
          onClick={() => ref.current?.close()}
        >
          <CloseIcon />
        </button>
      </header>
      <nav className="explain-tabs" aria-label="Algorithms">
        {ALGO_IDS.map((id) => (
          <button
            key={id}
            type="button"
            aria-current={id === shown ? "page" : undefined}
            title={EXPLANATIONS[id].summary}
            data-testid={`explain-tab-${id}`}
            onClick={() => show(id)}
          >
            {ALGORITHMS[id].title}
          </button>
        ))}
      </nav>
      <div className="explain-body" ref={body}>
        <p className="explain-plain" data-testid="explain-plain">
          <strong>In plain words. </strong>
          <MathText text={ex.plain} />
        </p>
        {ex.paragraphs.map((p) => (
          <p key={p}>
            <MathText text={p} />
          </p>
        ))}
        <h3>Needs</h3>
        <ul className="explain-needs">
          {ex.needs.map((n) => (
            <li key={n}>
              <MathText text={n} />
            </li>
          ))}
        </ul>
        <h3>Objective</h3>
        {ex.formulas.map((f) => (
          <figure key={f.label} className="explain-formula">
            <figcaption>{f.label}</figcaption>
            <Tex tex={f.tex} display />
            {f.note && (
              <p className="explain-note">
                <MathText text={f.note} />
              </p>
            )}
          </figure>
        ))}
        <h3>Knobs</h3>
        {!(shown === algo && config) && (
          <p className="explain-note" data-testid="explain-defaults-note">
            Defaults are the algorithm's own. A run may use others (a lesson or experiment sets them): open
            this panel from a run card's ? to see that run's values marked.
          </p>
        )}
        <KnobList algo={shown} config={shown === algo ? config : undefined} />
        <h3>Papers</h3>
        <ul className="explain-papers">
          {ex.papers.map((p) => (
            <li key={p.url}>
              <a href={p.url} target="_blank" rel="noopener noreferrer">
                {p.title}
              </a>{" "}
              <span className="muted">
                {p.authors} {p.year}
              </span>{" "}
              <CopyBibtex paper={p} />
            </li>
          ))}
        </ul>
      </div>
      {onAdd && (
        <footer className="explain-foot">
          <button
            type="button"
            className="explain-add"
            data-testid="explain-add"
            disabled={!!addDisabled}
            title={typeof addDisabled === "string" ? addDisabled : undefined}
            onClick={() => {
              onAdd(shown);
              ref.current?.close();
            }}
          >
            + Add a {info.title} run
          </button>
        </footer>
      )}
    </dialog>
  );
}
