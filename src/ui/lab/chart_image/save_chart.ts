/**
 * Save a chart as an image (./SaveImageButton.tsx): its drawn SVG cloned with its look inlined
 * (./svg_clone.ts), with a title, the legend of its visible runs and a footer of the settings it was drawn
 * with (./legend.ts, ./compose.ts), downloaded as SVG or as a PNG at twice the screen's pixels (./rasterise.ts).
 * The settings come from the lab store the chart reads; a failure lands in the lab's notice. The Pipeline's
 * charts save through the same figureImageSvg and downloadImage (./pipeline_image.ts).
 */
import { downloadBlob } from "../../../lab/export/download";
import { errorMessage } from "../../../util/errors";
import { useLab } from "../../lab_store";
import type { ChartLine } from "../chart_types";
import { KL_ESTIMATORS } from "../metric_info";
import { composeSvg } from "./compose";
import { type ImageLegendEntry, imageFileName, imageFooter, imageLegend, imageTitle } from "./legend";
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

/** An image's SVG text and size (CSS px). */
export interface ChartImage {
  svg: string;
  width: number;
  height: number;
}

/** The text an image adds to its plot: the title line, the legend and the footer line (both wrapped to fit). */
export interface ImageText {
  title: string;
  legend: readonly ImageLegendEntry[];
  footer: string;
}

/**
 * The image of the chart drawn in `figure` (its first `<svg class="recharts-surface">` under `plot`, a
 * selector), with `text`, in the figure's theme colours and font.
 * @throws Error when the chart has not been drawn (no such svg).
 */
export function figureImageSvg(figure: Element, plot: string, text: ImageText): ChartImage {
  const drawn = figure.querySelector<SVGSVGElement>(`${plot} svg.recharts-surface`);
  if (!drawn) throw new Error("the chart has not been drawn yet");
  const clone = inlinedClone(drawn);
  const style = getComputedStyle(figure);
  return composeSvg({
    chart: new XMLSerializer().serializeToString(clone),
    width: Number(clone.getAttribute("width")),
    height: Number(clone.getAttribute("height")),
    ...text,
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

/** The image of the metric chart drawn in `figure`: its SVG text and size. */
export function chartImageSvg(figure: Element, info: ChartImageInfo): ChartImage {
  const { spec, view } = useLab.getState();
  const kl = KL_ESTIMATORS.find((k) => k.key === view.klEstimator)?.name ?? view.klEstimator;
  return figureImageSvg(figure, ".chart-plot", {
    title: imageTitle(info.title, info.unit, info.xLabel),
    legend: imageLegend(info.lines, view.hidden, info.solidName ?? info.title.toLowerCase()),
    footer: imageFooter({
      task: spec.task,
      model: spec.model,
      seed: spec.seed,
      smoothing: info.compact ? 0 : view.smoothing,
      klEstimator: kl,
    }),
  });
}

/** Download `image` as `kind` named `name` (a PNG at twice the screen's pixels: rasterise.ts pngScale). */
export async function downloadImage(image: ChartImage, name: string, kind: ImageKind): Promise<void> {
  if (kind === "svg") return downloadBlob(image.svg, name, "image/svg+xml;charset=utf-8");
  const scale = pngScale(window.devicePixelRatio, image.width, image.height);
  const png = await svgToPng(image.svg, image.width, image.height, scale);
  downloadBlob(new Uint8Array(await png.arrayBuffer()), name, "image/png");
}

/** Download the chart drawn in `figure` as `kind`; a failure is said in the lab's notice. */
export async function saveChartImage(figure: Element, info: ChartImageInfo, kind: ImageKind): Promise<void> {
  const { spec, runs, setNotice } = useLab.getState();
  try {
    const image = chartImageSvg(figure, info);
    const step = Math.max(0, ...info.lines.map((l) => runs[l.runId]?.step ?? 0));
    await downloadImage(image, imageFileName(info.id, spec.task, spec.seed, step, kind), kind);
  } catch (e) {
    setNotice(`Saving the ${info.title} chart as an image failed: ${errorMessage(e)}`);
  }
}
