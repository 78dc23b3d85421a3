/**
 * The Pipeline's charts save images as the lab's charts do (src/ui/lab/chart_image/pipeline_image.ts): each chart
 * with points has the "⤓ Image" button (PipelineChart.tsx: it had none), its image's legend names each series
 * in its colour, dashed or dots as drawn, and its footer names the stage, task, model, seed and steps and ends
 * with the build (labVersionText), as the lab charts' footers do.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { labVersionText } from "../../src/lab/build_info";
import { composeSvg } from "../../src/ui/lab/chart_image/compose";
import { imageFileName, imageTitle } from "../../src/ui/lab/chart_image/legend";
import { pipelineFooter, pipelineLegend } from "../../src/ui/lab/chart_image/pipeline_image";
import { PipelineChart, type PipelineSeries } from "../../src/ui/lab/PipelineChart";

const SERIES: PipelineSeries[] = [
  { key: "loss", name: "BT loss", colour: "var(--run-0)" },
  { key: "accuracy", name: "batch accuracy (right axis)", colour: "var(--run-2)", dashed: true, share: true },
  {
    key: "heldOut",
    name: "held-out vs labels (right axis)",
    colour: "var(--run-3)",
    dots: true,
    share: true,
  },
];
const IMAGE = {
  id: "pipeline-rm",
  title: "Reward model: Bradley–Terry loss and accuracies",
  stage: "reward model",
  model: "nano (2 layers, C = 32, context 32) + reward head",
  step: 3,
  steps: 3,
};

describe("a Pipeline chart's image", () => {
  it("is offered by the chart once it has points (PNG and SVG), not before", () => {
    const chart = (rows: Record<string, number>[]) =>
      renderToStaticMarkup(createElement(PipelineChart, { rows, series: SERIES, label: "RM", image: IMAGE }));
    const drawn = chart([{ step: 1, loss: 0.7, accuracy: 0.5 }]);
    expect(drawn).toContain('data-testid="save-image-pipeline-rm"');
    expect(drawn).toContain(`aria-label="Save ${IMAGE.title} chart as image"`);
    expect(drawn).toContain('data-testid="chart-pipeline-rm"');
    expect(chart([])).not.toContain("save-image-pipeline-rm");
  });

  it("has a legend of its series: lines in their colour and dash, the sparse series as dots", () => {
    const legend = pipelineLegend(SERIES);
    expect(legend.map((e) => e.label)).toEqual(SERIES.map((s) => s.name));
    expect(legend[0]).toMatchObject({ colour: "var(--run-0)", dash: undefined, hollow: false });
    expect(legend[0].dotsOnly).toBeUndefined();
    expect(legend[1]).toMatchObject({ colour: "var(--run-2)", dash: "5 4" });
    expect(legend[2]).toMatchObject({ colour: "var(--run-3)", shape: "circle", dotsOnly: true });
    // Drawn: a dots-only entry has its dot and no line.
    const svg = composeSvg({
      chart: "<svg/>",
      width: 600,
      height: 130,
      title: imageTitle(IMAGE.title, undefined, "step"),
      legend,
      footer: "f",
      colours: { text: "#000", muted: "#666", background: "#fff", font: "sans" },
      resolve: (c) => c,
    }).svg;
    const entries = svg.split('<g class="image-legend-entry">').slice(1);
    expect(entries).toHaveLength(3);
    expect(entries[0]).toContain("<line");
    expect(entries[1]).toContain('stroke-dasharray="5 4"');
    expect(entries[2]).not.toContain("<line");
    expect(entries[2]).toContain('data-shape="circle"');
    expect(svg).toContain(">Reward model: Bradley–Terry loss and accuracies vs step</text>");
  });

  it("has a footer naming the stage, task, model, seed and steps, ending with the build", () => {
    const parts = { stage: "SFT", task: "arithmetic", model: "nano (2 layers, C = 32, context 32)", seed: 0 };
    expect(pipelineFooter({ ...parts, step: 40, steps: 40 })).toBe(
      `stage SFT · task arithmetic · model nano (2 layers, C = 32, context 32) · seed 0 · step 40 · ${labVersionText()}`,
    );
    // Stopped early, or still training: the steps asked for too.
    expect(pipelineFooter({ ...parts, step: 12, steps: 400 })).toContain(" · step 12 of 400 · ");
    expect(pipelineFooter({ ...parts, step: 12 })).toContain(" · step 12 · ");
    expect(imageFileName(IMAGE.id, "arithmetic", 0, 3, "png")).toBe("pipeline-rm-arithmetic-seed0-step3.png");
  });
});
