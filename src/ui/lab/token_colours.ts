/**
 * The samples panel's colour modes: which per-token value a mode paints, and a diverging colour scale
 * (Okabe–Ito blue below the midpoint, vermillion above, transparent at it) so the text stays readable in both
 * themes. Pure functions (token_colours.test.ts).
 */
import type { TokenView } from "../../lab/protocol";
import type { ColourMode } from "../lab_store";

export interface ColourModeInfo {
  mode: ColourMode;
  name: string;
  /** What low and high mean, for the legend. */
  low: string;
  high: string;
  /** A caveat the legend shows beside the scale, if any. */
  note?: string;
}

export const COLOUR_MODES: readonly ColourModeInfo[] = [
  { mode: "none", name: "No colour", low: "", high: "" },
  { mode: "logp", name: "Log-prob", low: "unlikely", high: "likely" },
  { mode: "prob", name: "Probability", low: "unlikely", high: "likely" },
  {
    mode: "advantage",
    name: "Advantage",
    low: "discouraged",
    high: "reinforced",
    // PPO whitens Â over the batch (mean 0, std 1): with every reward 0, KL and value-head noise fill the scale.
    note: "PPO's are whitened per batch: with no reward signal they are noise scaled to spread 1",
  },
  { mode: "ratio", name: "Ratio π/π_old", low: "less likely now", high: "more likely now" },
  { mode: "kl", name: "Per-token KL", low: "below ref", high: "above ref" },
];

/** The value a mode paints, or null when the token has none (e.g. no advantage for DPO). */
export function tokenValue(t: TokenView, mode: ColourMode): number | null {
  switch (mode) {
    case "none":
      return null;
    case "logp":
      return t.logp;
    case "prob":
      return t.prob;
    case "advantage":
      return t.advantage;
    case "ratio":
      return t.ratio;
    case "kl":
      return t.kl;
  }
}

/** A scale: values map to t ∈ [−1, 1] around `mid`; `lo` and `hi` are the legend's ends. */
export interface DivergingScale {
  lo: number;
  mid: number;
  hi: number;
  /** −1 (lo) … 0 (mid) … 1 (hi). */
  position(v: number): number;
}

/**
 * The scale for a mode over the values shown: probability around ½ on [0, 1]; log-prob on [min, 0] around
 * its middle; ratio symmetric in log space around 1; advantage and KL symmetric around 0.
 */
export function scaleFor(mode: ColourMode, values: readonly number[]): DivergingScale {
  const finite = values.filter(Number.isFinite);
  const maxAbs = (xs: number[]) => Math.max(1e-9, ...xs.map(Math.abs));
  const linear = (lo: number, mid: number, hi: number): DivergingScale => ({
    lo,
    mid,
    hi,
    position: (v) => clamp1(v >= mid ? (v - mid) / (hi - mid || 1) : -(mid - v) / (mid - lo || 1)),
  });
  switch (mode) {
    case "prob":
      return linear(0, 0.5, 1);
    case "logp": {
      const lo = Math.min(-1e-3, ...finite);
      return linear(lo, lo / 2, 0);
    }
    case "ratio": {
      const m = maxAbs(finite.filter((v) => v > 0).map(Math.log));
      return {
        lo: Math.exp(-m),
        mid: 1,
        hi: Math.exp(m),
        position: (v) => (v > 0 ? clamp1(Math.log(v) / m) : -1),
      };
    }
    default: {
      const m = maxAbs(finite);
      return linear(-m, 0, m);
    }
  }
}

function clamp1(t: number): number {
  return Number.isFinite(t) ? Math.min(1, Math.max(-1, t)) : 0;
}

/** The background of a token at position t ∈ [−1, 1]: blue below the midpoint, vermillion above. */
export function colourAt(t: number): string {
  const alpha = Math.min(1, Math.abs(t)) * 0.7;
  return t < 0 ? `rgb(0 114 178 / ${alpha.toFixed(3)})` : `rgb(213 94 0 / ${alpha.toFixed(3)})`;
}
