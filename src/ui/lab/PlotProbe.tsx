/**
 * Reads a recharts chart's x scale and plot area from inside it (recharts' hooks) and publishes them in the
 * chart's PlotBox (./pin_anchor.ts), for its pinned card and its clicks, outside the chart. Draws nothing.
 */
import { useLayoutEffect } from "react";
import { usePlotArea, useXAxisInverseScale } from "recharts";
import type { PlotBox } from "./pin_anchor";

export function PlotProbe({ box }: { box: PlotBox }) {
  const inverse = useXAxisInverseScale();
  const area = usePlotArea();
  // After each render (the scale changes as steps arrive); the box tells its readers only of a change.
  useLayoutEffect(() => {
    if (!inverse || !area || !(area.width > 0)) return box.set(undefined);
    const x0 = Number(inverse(area.x));
    const x1 = Number(inverse(area.x + area.width));
    if (!Number.isFinite(x0) || !Number.isFinite(x1)) return box.set(undefined);
    box.set({ left: area.x, top: area.y, width: area.width, height: area.height, x0, x1 });
  });
  return null;
}
