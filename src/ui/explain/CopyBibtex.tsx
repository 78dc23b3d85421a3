/**
 * A paper's "Copy BibTeX" button, beside each paper in the explain panels: copies the entry bibtex.ts builds
 * from papers.ts, the way Share copies (url_sync's copyText: async clipboard, else execCommand); where the
 * clipboard refuses, shows the entry selected for Ctrl+C. "Copied" reads "Copy BibTeX" again after 2 s
 * (copied_flash.ts).
 */
import { useEffect, useRef, useState } from "react";
import { copyText } from "../lab/url_sync";
import { bibKey, toBibtex } from "./bibtex";
import { flashCopied } from "./copied_flash";
import type { Paper } from "./papers";

export function CopyBibtex({ paper }: { paper: Paper }) {
  const [state, setState] = useState<"idle" | "copied" | "shown">("idle");
  const bib = toBibtex(paper);
  const key = bibKey(paper);
  const cancel = useRef<() => void>(() => {});
  useEffect(() => () => cancel.current(), []); // unmounted: no reset of a gone button
  return (
    <>
      <button
        type="button"
        className="explain-bibtex"
        data-testid={`bibtex-${key}`}
        title={`Copy this paper's BibTeX entry (${key})`}
        aria-label={`Copy BibTeX for ${paper.title}`}
        onClick={async () => {
          const copied = await copyText(bib);
          cancel.current();
          if (copied) cancel.current = flashCopied(setState, "copied", "idle");
          else setState("shown");
        }}
      >
        {state === "copied" ? "Copied" : "Copy BibTeX"}
      </button>
      {state === "shown" && (
        <textarea
          className="explain-bibtex-text"
          data-testid={`bibtex-text-${key}`}
          aria-label={`BibTeX for ${paper.title}`}
          readOnly
          rows={bib.split("\n").length}
          value={bib}
          ref={(el) => el?.select()}
        />
      )}
    </>
  );
}
