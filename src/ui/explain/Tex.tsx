/**
 * KaTeX output for a formula, and text with inline $…$ math. Rendering uses throwOnError; a formula that does
 * not parse shows a visible "could not be typeset" note with its source instead of breaking the panel.
 */
import { useMemo } from "react";
import { errorMessage } from "../../util/errors";
import { renderTex, splitMath } from "./math_text";

type Rendered = { ok: true; html: string } | { ok: false; error: string };

function tryRender(tex: string, display: boolean): Rendered {
  try {
    return { ok: true, html: renderTex(tex, display) };
  } catch (e) {
    return { ok: false, error: errorMessage(e) };
  }
}

/** One formula: display mode (a block) or inline. */
export function Tex({ tex, display = false }: { tex: string; display?: boolean }) {
  const r = useMemo(() => tryRender(tex, display), [tex, display]);
  if (!r.ok)
    return (
      <span className="tex-error" role="note" data-testid="tex-error">
        Formula could not be typeset ({r.error}): <code>{tex}</code>
      </span>
    );
  return (
    // KaTeX's own output for a TeX string written in this repository (no user input reaches it).
    // biome-ignore lint/security/noDangerouslySetInnerHtml: KaTeX HTML of our own formulas
    <span className={display ? "tex tex-display" : "tex"} dangerouslySetInnerHTML={{ __html: r.html }} />
  );
}

/** Text with inline math between single dollar signs. An unbalanced "$" shows as an error note. */
export function MathText({ text }: { text: string }) {
  const parts = useMemo(() => {
    try {
      return splitMath(text);
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
  }, [text]);
  if (parts instanceof Error)
    return (
      <span className="tex-error" role="note" data-testid="tex-error">
        {parts.message}
      </span>
    );
  return (
    <>
      {parts.map((p, i) =>
        p.kind === "text" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed split of a constant string
          <span key={i}>{p.text}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed split of a constant string
          <Tex key={i} tex={p.tex} />
        ),
      )}
    </>
  );
}
