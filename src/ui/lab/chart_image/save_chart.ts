/**
 * Save a chart as an image (./SaveImageButton.tsx): its drawn SVG cloned with its look inlined
 * (./svg_clone.ts), with a title, the legend of its visible runs and a footer of the settings it was drawn
 * with (./legend.ts, ./compose.ts), downloaded as SVG or as a PNG at twice the screen's pixels (./rasterise.ts).
 * The settings come from the lab store the chart reads; a failure lands in the lab's notice.
 */
import { downloadBlob } from "../../../lab/export/download";
import { errorMessage } from "../../../util/errors";
import { useLab } from "../../lab_store";
import type { ChartLine } from "../chart_types";
import { KL_ESTIMATORS } from "../metric_info";
import { composeSvg } from "./compose";
import { imageFileName, imageFooter, imageLegend, imageTitle } from "./legend";
import { pngScale, svgToPng } from "./rasterise";
import { inlinedClone, resolvedColour } from "./svg_clone";
import { canvasMeasure } from "./text_fit";

export type ImageKind = "png" | "svg";

/** What the image says about its chart, besides the drawing. */
export interface ChartImageInfo {
  /** The chart's id ("reward", "kl", …): the file name's start. */
  id: string;
  title: string;
  unit?: string;
  /** The x axis's name as the chart's hover card writes it. */
  xLabel: string;
  lines: readonly ChartLine[];
  /** Small charts draw raw values: their footer says smoothing 0. */
  compact?: boolean;
  /** The solid lines' name beside dashed companions ("run's reward" beside "gold"). */
  solidName?: string;
}

/** The image of the chart drawn in `figure`: its SVG text, size and file name's stem parts. */
export function chartImageSvg(
  figure: Element,
  info: ChartImageInfo,
): { svg: string; width: number; height: number } {
  const drawn = figure.querySelector<SVGSVGElement>(".chart-plot svg.recharts-surface");
  if (!drawn) throw new Error("the chart has not been drawn yet");
  const { spec, view } = useLab.getState();
  const clone = inlinedClone(drawn);
  const style = getComputedStyle(figure);
  const kl = KL_ESTIMATORS.find((k) => k.key === view.klEstimator)?.name ?? view.klEstimator;
  return composeSvg({
    chart: new XMLSerializer().serializeToString(clone),
    width: Number(clone.getAttribute("width")),
    height: Number(clone.getAttribute("height")),
    title: imageTitle(info.title, info.unit, info.xLabel),
    legend: imageLegend(info.lines, view.hidden, info.solidName ?? info.title.toLowerCase()),
    footer: imageFooter({
      task: spec.task,
      model: spec.model,
      seed: spec.seed,
      smoothing: info.compact ? 0 : view.smoothing,
      klEstimator: kl,
    }),
    colours: {
      text: style.color,
      muted: resolvedColour("var(--muted)", figure),
      background: resolvedColour("var(--surface)", figure),
      font: style.fontFamily,
    },
    resolve: (c) => resolvedColour(c, figure),
    measure: canvasMeasure(style.fontFamily),
  });
}

/** Download the chart drawn in `figure` as `kind`. */
export async function saveChartImage(figure: Element, info: ChartImageInfo, kind: ImageKind): Promise<void> {
  const { spec, runs, setNotice } = useLab.getState();
  try {
    const image = chartImageSvg(figure, info);
    const step = Math.max(0, ...info.lines.map((l) => runs[l.runId]?.step ?? 0));
    const name = imageFileName(info.id, spec.task, spec.seed, step, kind);
    if (kind === "svg") return downloadBlob(image.svg, name, "image/svg+xml;charset=utf-8");
    const png = await svgToPng(
      image.svg,
      image.width,
      image.height,
      pngScale(window.devicePixelRatio, image.width, image.height),
    );
    downloadBlob(new Uint8Array(await png.arrayBuffer()), name, "image/png");
  } catch (e) {
    setNotice(`Saving the ${info.title} chart as an image failed: ${errorMessage(e)}`);
  }
}
