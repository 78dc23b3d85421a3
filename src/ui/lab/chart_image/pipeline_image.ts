/**
 * Save a Pipeline chart (../PipelineChart.tsx: the SFT loss, the reward model's Bradley–Terry loss and
 * accuracies) as an image, as the lab's charts are saved (./save_chart.ts): its plot, a title, the legend of its
 * series and a footer naming the stage, task, model, seed and steps, ending with the build
 * (labVersionText). Named like the others: "pipeline-sft-arithmetic-seed0-step40.png".
 */
import { labVersionText } from "../../../lab/build_info";
import { errorMessage } from "../../../util/errors";
import { useLab } from "../../lab_store";
import { lineDash } from "../line_dash";
import type { PipelineSeries } from "../PipelineChart";
import { type ImageLegendEntry, imageFileName, imageTitle } from "./legend";
import { downloadImage, figureImageSvg, type ImageKind } from "./save_chart";

/** What a Pipeline chart's image says besides its plot. */
export interface PipelineImageInfo {
  /** The file name's start and the button's test id ("pipeline-sft", "pipeline-rm"). */
  id: string;
  /** The chart's title ("SFT loss") and its left axis's unit ("nats/token"; none: no unit). */
  title: string;
  unit?: string;
  /** The stage's name in the footer ("SFT", "reward model"). */
  stage: string;
  /** The model trained ("nano (2 layers, C = 32, context 32)", or the size asked for before it has trained). */
  model: string;
  /** Steps trained so far (the chart's last), and asked for (more while it trains or when it was stopped). */
  step: number;
  steps?: number;
  series: readonly PipelineSeries[];
}

/** The legend: each series once, in its colour, dashed or dots as drawn. */
export function pipelineLegend(series: readonly PipelineSeries[]): ImageLegendEntry[] {
  return series.map((s) => ({
    label: s.name,
    colour: s.colour,
    hollow: false,
    ...(s.dots ? { shape: "circle" as const, dotsOnly: true } : { dash: lineDash({ dashed: s.dashed }) }),
  }));
}

/** What the footer names: the chart's info and the lab's task and seed (the Pipeline trains on them). */
export type PipelineFooterParts = Pick<PipelineImageInfo, "stage" | "model" | "step" | "steps"> & {
  task: string;
  seed: number;
};

/**
 * The footer line: "stage SFT · task arithmetic · model nano (…) · seed 0 · step 12 of 400 · RLHF Playground
 * 0.1.0 (e82316e)" ("of N" only where fewer steps were trained than asked for).
 */
export function pipelineFooter(p: PipelineFooterParts): string {
  const steps = p.steps !== undefined && p.steps > p.step ? `step ${p.step} of ${p.steps}` : `step ${p.step}`;
  return [
    `stage ${p.stage}`,
    `task ${p.task}`,
    `model ${p.model}`,
    `seed ${p.seed}`,
    steps,
    labVersionText(),
  ].join(" · ");
}

/** Download the Pipeline chart drawn in `figure` as `kind`; a failure is said in the lab's notice. */
export async function savePipelineImage(figure: Element, info: PipelineImageInfo, kind: ImageKind) {
  const { spec, setNotice } = useLab.getState();
  try {
    const image = figureImageSvg(figure, ".pipeline-chart", {
      title: imageTitle(info.title, info.unit, "step"),
      legend: pipelineLegend(info.series),
      footer: pipelineFooter({ ...info, task: spec.task, seed: spec.seed }),
    });
    await downloadImage(image, imageFileName(info.id, spec.task, spec.seed, info.step, kind), kind);
  } catch (e) {
    setNotice(`Saving the ${info.title} chart as an image failed: ${errorMessage(e)}`);
  }
}
