/**
 * The lesson card's references: each a link (new tab), and for a paper (../explain/papers.ts, found by its
 * URL) a Copy BibTeX button, as the explain panels have (../explain/CopyBibtex.tsx). A reference that is no
 * paper (a blog post) is a link only.
 */
import type { PaperRef } from "../../lab/presets/lesson";
import { CopyBibtex } from "../explain/CopyBibtex";
import { paperAt } from "../explain/papers";

export function LessonRefs({ refs }: { refs: readonly PaperRef[] }) {
  return (
    <p className="lesson-refs">
      {refs.map((r) => {
        const paper = paperAt(r.url);
        return (
          <span key={r.url} className="lesson-ref">
            <a href={r.url} target="_blank" rel="noopener noreferrer">
              {r.label}
            </a>
            {paper && <CopyBibtex paper={paper} />}
          </span>
        );
      })}
    </p>
  );
}
