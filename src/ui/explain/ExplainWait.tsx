/**
 * What the explain panel's place shows while its code downloads (./ExplainButton.tsx): "Loading…", or why the
 * download failed and what to do. Styled from the main bundle (explain_button.css): the panel's own CSS comes
 * with the code that did not arrive.
 */
import { useId, useRef } from "react";
import { useModalDialog } from "../use_modal_dialog";

export function ExplainWait({
  problem,
  onClose,
}: {
  /** Why the download failed; null while it is under way. */
  problem: string | null;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useModalDialog(ref, onClose);
  return (
    <dialog ref={ref} className="explain-wait" aria-labelledby={id} data-testid="explain-wait">
      <h2 id={id}>Explanation</h2>
      {problem === null ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> Loading the explanation…
        </p>
      ) : (
        <p role="alert">
          The explanation could not be downloaded ({problem}). It is fetched once, after the lab opens, and
          the page keeps a failed fetch: check the connection, then reload the page (the lab asks first when a
          reload would lose training steps). Training goes on meanwhile.
        </p>
      )}
      <div className="explain-wait-actions">
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
