/**
 * The pinned hover card (chart_pin.ts): the chart's hover card frozen at the clicked x, its numbers at full
 * precision (as the CSV writes them), selectable text, with a × to unpin (Escape too). Drawn over the plot
 * beside the click, never wider than the plot nor past its edges (pinPlace, from the card's measured width on
 * each render, so a resized window keeps it in); unlike the hover card it takes the mouse, so its numbers can
 * be selected and copied.
 */
import { type ComponentProps, useLayoutEffect, useRef, useState } from "react";
import { ChartTip } from "./ChartParts";
import { type Pin, pinPlace } from "./chart_pin";
import { CloseIcon } from "./icons";

export function PinnedTip({
  pin,
  width,
  onClose,
  ...tip
}: { pin: Pin; width: number; onClose(): void } & Omit<ComponentProps<typeof ChartTip>, "x" | "exact">) {
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
      style={{ ...pinPlace(pin, width, cardPx), maxWidth: width > 0 ? width : undefined }}
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
    </section>
  );
}
