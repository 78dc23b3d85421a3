/**
 * The pinned hover card (chart_pin.ts): the chart's hover card frozen at the clicked x, its numbers at full
 * precision (as the CSV writes them), selectable text, with a × to unpin (Escape too). Drawn over the plot
 * beside its x as drawn now (pin_anchor.ts pinAnchor, from the scale its chart's PlotProbe publishes in `box`:
 * new steps widening the axis move it along with its point; an x past the plot's edge is held at that edge,
 * saying so), never wider than the plot nor past its edges (pinPlace, from the card's measured width on each
 * render, so a resized window keeps it in); unlike the hover card it takes the mouse, so its numbers can be
 * selected and copied.
 */
import { type ComponentProps, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { ChartTip } from "./ChartParts";
import { type Pin, pinPlace } from "./chart_pin";
import { CloseIcon } from "./icons";
import { type PlotBox, pinAnchor } from "./pin_anchor";

const NO_BOX: PlotBox = { get: () => undefined, set: () => {}, subscribe: () => () => {} };

export function PinnedTip({
  pin,
  width,
  onClose,
  box = NO_BOX,
  ...tip
}: { pin: Pin; width: number; onClose(): void; box?: PlotBox } & Omit<
  ComponentProps<typeof ChartTip>,
  "x" | "exact"
>) {
  const scale = useSyncExternalStore(box.subscribe, box.get, box.get);
  const anchor = pinAnchor(pin, scale, width);
  const card = useRef<HTMLElement>(null);
  const [cardPx, setCardPx] = useState(0);
  // Measured after each render, before it is painted (its numbers and the plot's width change it).
  useLayoutEffect(() => {
    const px = card.current?.offsetWidth ?? 0;
    if (px !== cardPx) setCardPx(px);
  });
  return (
    <section
      ref={card}
      className="chart-tip-pinned"
      data-testid="chart-tip-pinned"
      aria-label={`Values at ${tip.xLabel} ${pin.x} (pinned)`}
      data-off={anchor.off}
      style={{ ...pinPlace(pin, width, cardPx, anchor.at), maxWidth: width > 0 ? width : undefined }}
    >
      <button
        type="button"
        className="chart-tip-close icon-button"
        data-testid="chart-tip-close"
        title="Unpin (Escape)"
        aria-label="Unpin the values"
        onClick={onClose}
      >
        <CloseIcon />
      </button>
      <ChartTip {...tip} x={pin.x} exact />
      {anchor.off && (
        <p className="chart-tip-off muted" data-testid="chart-tip-off">
          {anchor.off === "left" ? "←" : "→"} {tip.xLabel} {pin.x} is off the plot
        </p>
      )}
    </section>
  );
}
