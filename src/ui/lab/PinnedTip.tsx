/**
 * The pinned hover card (chart_pin.ts): the chart's hover card frozen at the clicked x, its numbers at full
 * precision (as the CSV writes them), selectable text, with a × to unpin (Escape too). Drawn over the plot
 * beside the click; unlike the hover card it takes the mouse, so its numbers can be selected and copied.
 */
import type { ComponentProps } from "react";
import { ChartTip } from "./ChartParts";
import { type Pin, pinPlace } from "./chart_pin";
import { CloseIcon } from "./icons";

export function PinnedTip({
  pin,
  width,
  onClose,
  ...tip
}: { pin: Pin; width: number; onClose(): void } & Omit<ComponentProps<typeof ChartTip>, "x" | "exact">) {
  return (
    <section
      className="chart-tip-pinned"
      data-testid="chart-tip-pinned"
      aria-label={`Values at ${tip.xLabel} ${pin.x} (pinned)`}
      style={pinPlace(pin, width)}
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
