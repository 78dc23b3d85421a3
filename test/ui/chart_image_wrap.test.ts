/**
 * A saved image of a narrow chart keeps its title, legend and footer whole (compose.ts, text_fit.ts): a
 * "more metrics" chart is 273 px wide at 1280×800, and the title and footer, one <text> each at the chart's
 * width, were cut off ("…seed 0 · sm"). Now they wrap (the footer after " · ", the title before " vs ", then at
 * spaces) by a measured width — here the pure estimate — and the image grows taller.
 */
import { describe, expect, it } from "vitest";
import { labVersionText } from "../../src/lab/build_info";
import { composeSvg } from "../../src/ui/lab/chart_image/compose";
import { imageFooter, imageLegend, imageTitle } from "../../src/ui/lab/chart_image/legend";
import { estimateWidth, wrapText } from "../../src/ui/lab/chart_image/text_fit";
import type { ChartLine } from "../../src/ui/lab/chart_types";

const WIDTH = 273;
const PAD = 12;
const CHART = '<svg xmlns="http://www.w3.org/2000/svg" width="273" height="150"><path d="M0,0L1,1"/></svg>';

/** Each <text> outside the chart: its x, its text, its font size and weight and its group's class (or its own). */
function texts(svg: string) {
  const out: { x: number; text: string; px: number; weight: number; role: string }[] = [];
  const stack: Record<string, string>[] = [];
  const body = svg.replace(CHART, "");
  for (const m of body.matchAll(/<(\/?)([a-z]+)([^>]*?)(\/?)>([^<]*)/g)) {
    const [, close, tag, attrText, selfClose, after] = m;
    if (close) {
      stack.pop();
      continue;
    }
    const attrs = Object.fromEntries([...attrText.matchAll(/([a-z-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
    const inherited = Object.assign({}, ...stack, attrs);
    if (!selfClose) stack.push({ ...attrs, ...(attrs.class ? { role: attrs.class } : {}) });
    if (tag === "text")
      out.push({
        x: Number(attrs.x),
        text: after.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
        px: Number(inherited["font-size"]),
        weight: Number(inherited["font-weight"] ?? 400),
        role: inherited.role ?? inherited.class ?? "",
      });
  }
  return out;
}

const line = (runId: string, runLabel: string): ChartLine => ({
  runId,
  runLabel,
  colour: "red",
  metric: "kl_coef",
  history: [],
  shape: "circle",
});

describe("a narrow chart's image", () => {
  const title = imageTitle("KL coefficient β", undefined, "KL (k1), nats/completion");
  const footer = imageFooter({ task: "arithmetic", model: "nano", seed: 0, smoothing: 0, klEstimator: "k1" });
  const parts = {
    chart: CHART,
    width: WIDTH,
    height: 150,
    title,
    legend: imageLegend([line("a", "PPO β = 0.2 (fork @ 12)"), line("b", "GRPO"), line("c", "RLOO k = 4")]),
    footer,
    colours: { text: "#000", muted: "#666", background: "#fff", font: "sans-serif" },
    resolve: (c: string) => c,
  };
  const out = composeSvg(parts);
  const all = texts(out.svg);

  it("draws every line of text within the image's width", () => {
    expect(all.length).toBeGreaterThan(4);
    for (const t of all)
      expect(t.x + estimateWidth(t.text, t.px, t.weight), `${t.role}: ${t.text}`).toBeLessThanOrEqual(
        WIDTH - PAD,
      );
  });

  it("keeps the whole title and footer, across lines, and grows the image to hold them", () => {
    const of = (role: string) => all.filter((t) => t.role === role).map((t) => t.text);
    expect(of("image-footer").length).toBeGreaterThan(1);
    expect(of("image-footer").join(" ")).toBe(footer);
    expect(of("image-footer").at(-1)?.endsWith(labVersionText())).toBe(true);
    expect(of("image-title").join(" ")).toBe(title);
    expect(of("image-title")[1]).toBe("vs KL (k1), nats/completion");
    const wide = composeSvg({ ...parts, width: 1200 });
    expect(texts(wide.svg).filter((t) => t.role === "image-footer")).toHaveLength(1);
    expect(out.height).toBeGreaterThan(wide.height);
  });

  it("wraps a part still too wide at spaces, and leaves text that fits alone", () => {
    expect(wrapText("a · b", 500, { sep: " · ", keep: "after" }, estimateWidth, 11)).toEqual(["a · b"]);
    const lines = wrapText("aaaa bbbb cccc · dd", 60, { sep: " · ", keep: "after" }, estimateWidth, 11);
    expect(lines.join(" ")).toBe("aaaa bbbb cccc · dd");
    for (const l of lines) expect(estimateWidth(l, 11)).toBeLessThanOrEqual(60);
  });
});
