/**
 * A sample's tokens as the Samples panel (./SamplesPanel.tsx) shows them: each a span, coloured by the colour
 * mode on a diverging scale, with the scale's legend; the cursor's token read out with its numbers.
 */
import type { TokenView } from "../../lab/protocol";
import type { ColourMode } from "../lab_store";
import { sig } from "./numbers";
import { COLOUR_MODES, colourAt, type DivergingScale, tokenValue } from "./token_colours";
import { tokenRows } from "./token_rows";

/** A special token (e.g. "<eos>") shows as a small badge; others as their text. */
function isSpecial(text: string): boolean {
  return text.length > 2 && text.startsWith("<") && text.endsWith(">");
}

/** One token of a sample: its text (a special one as a badge), coloured by `mode` on `scale`; `active`: the cursor's. */
export function Token({
  id,
  token,
  mode,
  scale,
  active,
}: {
  id: string;
  token: TokenView;
  mode: ColourMode;
  scale: DivergingScale | null;
  active: boolean;
}) {
  const v = scale ? tokenValue(token, mode) : null;
  const background = v === null || !scale ? undefined : colourAt(scale.position(v));
  const cls = `tok${isSpecial(token.text) ? " tok-special" : ""}${active ? " tok-active" : ""}`;
  return (
    <span
      data-tok={id}
      tabIndex={-1}
      id={`tok-${id}`}
      role="option"
      aria-selected={active}
      // The cursor's token is read with its numbers (the card beside it is for the eyes: a screen reader reads
      // the listbox's active option only).
      aria-label={
        active
          ? `${token.text}: ${tokenRows(token)
              .map(([k, v]) => `${k} ${v}`)
              .join(", ")}`
          : undefined
      }
      className={cls}
      style={{ background }}
    >
      {token.text}
    </span>
  );
}

/** The colour scale's legend: its ends and what they mean, or the one value every token has. */
export function ScaleLegend({ mode, scale }: { mode: ColourMode; scale: DivergingScale }) {
  const info = COLOUR_MODES.find((m) => m.mode === mode);
  // One value everywhere (e.g. the ratio with μ = 1: π = π_old at every token): no scale to show.
  if (sig(scale.lo, 2) === sig(scale.hi, 2))
    return (
      <div className="scale-legend" data-testid="colour-legend">
        <span className="muted">
          every token at {sig(scale.lo, 2)}
          {mode === "ratio" ? " (π = π_old: the policy has not moved since it sampled them)" : ""}
        </span>
      </div>
    );
  return (
    <div className="scale-legend" data-testid="colour-legend">
      <span>
        {sig(scale.lo, 2)} <span className="muted">{info?.low}</span>
      </span>
      <span
        className="scale-bar"
        style={{ background: `linear-gradient(90deg, ${colourAt(-1)}, transparent, ${colourAt(1)})` }}
      />
      <span>
        <span className="muted">{info?.high}</span> {sig(scale.hi, 2)}
      </span>
      {info?.note && <span className="muted scale-note">{info.note}</span>}
    </div>
  );
}
