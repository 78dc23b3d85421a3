import { describe, expect, it } from "vitest";
import { labVersionText } from "../../src/lab/build_info";
import { composeSvg, escapeXml } from "../../src/ui/lab/chart_image/compose";
import { imageFileName, imageFooter, imageLegend, imageTitle } from "../../src/ui/lab/chart_image/legend";
import { pngScale } from "../../src/ui/lab/chart_image/rasterise";
import type { ChartLine } from "../../src/ui/lab/chart_types";

/** A chart line of run `runId` (no history: the legend reads names and looks only). */
function line(runId: string, runLabel: string, colour: string, extra: Partial<ChartLine> = {}): ChartLine {
  return { runId, runLabel, colour, metric: "reward", history: [], shape: "circle", ...extra };
}

const LINES: ChartLine[] = [
  line("ppo-1", "PPO β = 0.2", "var(--run-0)", { shape: "circle" }),
  line("ppo-2", "PPO β = 0", "var(--run-1)", { shape: "square" }),
  line("grpo-1", "GRPO", "var(--run-0)", { shape: "triangle", dotted: true }),
  line("ppo-1", "PPO β = 0.2", "var(--run-0)", { metric: "reward_gold", dashed: true, name: "gold" }),
  line("ppo-2", "PPO β = 0", "var(--run-1)", { metric: "reward_gold", dashed: true, name: "gold" }),
];

describe("a chart image's legend, title, footer and file name", () => {
  it("names each visible run once with its colour, shape and dash, then the line styles", () => {
    const legend = imageLegend(LINES, ["grpo-1"], "reward");
    expect(legend.map((e) => e.label)).toEqual(["PPO β = 0.2", "PPO β = 0", "reward", "gold"]);
    expect(legend[0]).toMatchObject({
      colour: "var(--run-0)",
      shape: "circle",
      hollow: false,
      dash: undefined,
    });
    expect(legend[1]).toMatchObject({ colour: "var(--run-1)", shape: "square" });
    // The style entries are in the text colour (null), gold with the chart's gold dash.
    expect(legend[2]).toMatchObject({ colour: null });
    expect(legend[2].dash).toBeUndefined();
    expect(legend[3]).toMatchObject({ colour: null, dash: "5 4" });
  });

  it("draws a run whose colour repeats hollow and dotted, as the chart does", () => {
    const legend = imageLegend(LINES, []);
    const grpo = legend.find((e) => e.label === "GRPO");
    expect(grpo).toMatchObject({ colour: "var(--run-0)", shape: "triangle", hollow: true, dash: "0.5 4" });
  });

  it("has no style entries where no line is dashed", () => {
    expect(imageLegend(LINES.slice(0, 2)).map((e) => e.label)).toEqual(["PPO β = 0.2", "PPO β = 0"]);
  });

  it("writes the footer from the settings given", () => {
    expect(
      imageFooter({ task: "arithmetic", model: "nano", seed: 7, smoothing: 0.6, klEstimator: "k3" }),
    ).toBe(
      `task arithmetic · start model nano · seed 7 · smoothing 0.60 · KL estimator k3 · ${labVersionText()}`,
    );
  });

  it("titles the image with the chart's title, unit and x axis", () => {
    expect(imageTitle("Reward", undefined, "step")).toBe("Reward vs step");
    expect(imageTitle("Entropy", "nats/token", "completion tokens")).toBe(
      "Entropy (nats/token) vs completion tokens",
    );
  });

  it("names the file as the run exports are named", () => {
    expect(imageFileName("reward", "arithmetic", 0, 6, "png")).toBe("reward-arithmetic-seed0-step6.png");
    expect(imageFileName("more-policy/clipfrac_avg", "sentiment", 3, 12, "svg")).toBe(
      "more-policy-clipfrac-avg-sentiment-seed3-step12.svg",
    );
  });

  it("draws PNGs at twice the screen's pixels, 2 at least", () => {
    expect(pngScale(1, 800, 400)).toBe(2);
    expect(pngScale(2, 800, 400)).toBe(4);
    expect(pngScale(0, 800, 400)).toBe(2);
  });

  it("keeps the PNG's canvas within 16 M pixels at high zoom (Safari's limit), and the scale at 1 at least", () => {
    const canvas = (w: number, h: number, s: number) => Math.round(w * s) * Math.round(h * s);
    for (const [w, h] of [
      [800, 400],
      [1400, 700],
      [2000, 900],
      [1023, 511],
    ]) {
      for (const dpr of [3, 4, 5]) {
        const s = pngScale(dpr, w, h);
        expect(w * h * s * s, `${w}×${h} at dpr ${dpr}`).toBeLessThanOrEqual(16_000_000);
        expect(canvas(w, h, s)).toBeLessThanOrEqual(16_000_000);
        expect(s).toBeGreaterThan(2); // still sharper than the floor: only the excess is cut
      }
    }
    expect(pngScale(5, 1400, 700)).toBeCloseTo(Math.sqrt(16_000_000 / (1401 * 701)), 9); // was 10: 98 M px
    expect(pngScale(4, 400, 200)).toBe(8); // small enough for the full scale
    expect(pngScale(3, 6000, 4000)).toBe(1); // never below 1
  });
});

describe("composeSvg", () => {
  const chart =
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><path class="recharts-line-curve" d="M0,0L10,10"/></svg>';
  const out = composeSvg({
    chart,
    width: 400,
    height: 200,
    title: "Reward vs step",
    legend: imageLegend(LINES, ["grpo-1"], "reward"),
    footer: "task arithmetic · RLHF Playground",
    colours: {
      text: "rgb(0, 0, 0)",
      muted: "rgb(90, 90, 90)",
      background: "rgb(255, 255, 255)",
      font: '"Inter", sans',
    },
    resolve: (c) => (c === "var(--run-0)" ? "rgb(230, 159, 0)" : "rgb(86, 180, 233)"),
  });

  it("holds the chart, title, every visible run's name in its colour and the footer, in one SVG", () => {
    expect(out.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(out.svg).toContain(chart);
    expect(out.svg).toContain(">Reward vs step</text>");
    expect(out.svg).toContain(`>${escapeXml("PPO β = 0.2")}</text>`);
    expect(out.svg).toContain(">PPO β = 0</text>");
    expect(out.svg).not.toContain("GRPO");
    expect(out.svg).toContain('stroke="rgb(230, 159, 0)"');
    expect(out.svg).toContain('data-shape="square"');
    expect(out.svg).toContain(">task arithmetic · RLHF Playground</text>");
    // No CSS variable is left for a file viewer to resolve, and the font's quotes are escaped.
    expect(out.svg).not.toContain("var(");
    expect(out.svg).toContain('font-family="&#34;Inter&#34;, sans"');
    expect(out.width).toBe(400);
    expect(out.height).toBeGreaterThan(200);
  });

  it("is balanced XML: every opened element is closed", () => {
    const stack: string[] = [];
    for (const m of out.svg.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)) {
      if (m[1]) expect(stack.pop()).toBe(m[2]);
      else if (!m[3]) stack.push(m[2]);
    }
    expect(stack).toEqual([]);
  });

  it("escapes a run name that looks like markup", () => {
    const svg = composeSvg({
      chart: "<svg/>",
      width: 300,
      height: 100,
      title: "t",
      legend: imageLegend([line("a", "<b>&'", "red")]),
      footer: "f",
      colours: { text: "#000", muted: "#666", background: "#fff", font: "sans" },
      resolve: (c) => c,
    }).svg;
    expect(svg).toContain(">&#60;b&#62;&#38;&#39;</text>");
    expect(svg).not.toContain("<b>");
  });
});
