import { describe, expect, it } from "vitest";
import type { MetricPoint } from "../../lab/protocol";
import { MARKER_CHAR_PX, placeMarkers } from "./marker_place";

const history: MetricPoint[] = Array.from({ length: 20 }, (_, i) => ({
  step: i + 1,
  samples: 8 * (i + 1),
  tokens: 100 * (i + 1),
  metrics: { reward: 0 },
}));
const extent = [history[0].step, history[history.length - 1].step] as const;
const run = (runId: string, runLabel: string, markers: { step: number; label: string }[]) => ({
  runId,
  runLabel,
  colour: `var(--run-${runId})`,
  history,
  markers: markers.map((m) => ({ runId, ...m })),
});

describe("marker placement", () => {
  // Two changes two steps apart (10 % of the x span), as in a paused lab where β was changed twice.
  const markers = [
    run("a", "PPO", [{ step: 8, label: "β 0.05 → 0.2" }]),
    run("b", "GRPO", [{ step: 8, label: "β 0.05 → 0.2" }]),
    run("a", "PPO", [{ step: 10, label: "β 0.2 → 0.3" }]),
  ];

  it("names one change made by several runs once, with the run count", () => {
    const placed = placeMarkers(markers, extent, "step", "objective/kl", 600);
    expect(placed.map((m) => [m.x, m.row, m.text])).toEqual([
      [8, 0, "β 0.05 → 0.2 · 2 runs"],
      [8, -1, "β 0.05 → 0.2 · 2 runs"],
      [10, expect.any(Number), "β 0.2 → 0.3 · PPO"],
    ]);
  });

  it("stacks labels that would touch on a narrow plot, keeps one row on a wide one", () => {
    const label = "β 0.05 → 0.2 · 2 runs".length * MARKER_CHAR_PX; // ≈ 140 px
    // 2 steps of a 19-step span: 10.5 % of the plot. Wide enough that 140 px fits in it: one row.
    const wide = placeMarkers(markers, extent, "step", "objective/kl", Math.ceil((label + 8) / 0.1));
    expect(wide.map((m) => m.row)).toEqual([0, -1, 0]);
    // A half-width chart (about 420 px): the second label goes one row down instead of running into the first.
    const narrow = placeMarkers(markers, extent, "step", "objective/kl", 420);
    expect(narrow.map((m) => m.row)).toEqual([0, -1, 1]);
    // 4 steps apart (21 % of the span) still touch at 420 px: a fixed share of the span would not see it.
    const apart = [markers[0], markers[1], run("a", "PPO", [{ step: 12, label: "β 0.2 → 0.3" }])];
    expect(placeMarkers(apart, extent, "step", "objective/kl", 420).map((m) => m.row)).toEqual([0, -1, 1]);
    expect(placeMarkers(apart, extent, "step", "objective/kl", 1200).map((m) => m.row)).toEqual([0, -1, 0]);
  });

  it("keeps every drawn label clear of the others, left-running ones included", () => {
    // A new user's lab: three runs' changes at steps 11, 19, 28 of 30 (the last one's label runs leftwards),
    // and a change undone three steps later; drawn on a half-width and a full-width chart.
    const long = Array.from({ length: 30 }, (_, i) => ({ ...history[0], step: i + 1 }));
    const at = (runId: string, runLabel: string, ms: { step: number; label: string }[]) => ({
      ...run(runId, runLabel, ms),
      history: long,
    });
    const markers = [
      at("a", "PPO", [
        { step: 11, label: "β 0.05 → 0.5" },
        { step: 14, label: "β 0.5 → 0.05" },
      ]),
      at("b", "GRPO", [{ step: 19, label: "ε 0.2 → 0.3" }]),
      at("c", "DPO", [{ step: 28, label: "loss sigmoid → ipo" }]),
    ];
    const extent30 = [long[0].step, long[long.length - 1].step] as const;
    for (const plotPx of [380, 700, 1100]) {
      const placed = placeMarkers(markers, extent30, "step", "objective/kl", plotPx);
      const px = (x: number) => ((x - 1) / 29) * plotPx;
      const boxes = placed
        .filter((m) => m.row >= 0 && m.x !== undefined)
        .map((m) => {
          const w = m.text.length * MARKER_CHAR_PX + 8; // as placeMarkers reserves it
          const x = px(m.x as number);
          return { row: m.row, lo: m.toLeft ? x - w : x, hi: m.toLeft ? x : x + w, text: m.text };
        });
      expect(boxes.length, `${plotPx} px: all labelled`).toBe(4);
      for (const a of boxes)
        for (const b of boxes)
          if (a !== b && a.row === b.row)
            expect(a.hi <= b.lo || a.lo >= b.hi, `${plotPx} px: "${a.text}" / "${b.text}"`).toBe(true);
    }
  });

  it("keeps labels inside a narrow plot: each on the side with room, or not drawn", () => {
    // A 245 px plot (the entropy chart at 1024 px wide): changes at steps 6, 7, 12 and 19 of 20.
    const changes = [
      run("a", "PPO", [{ step: 6, label: "β 0.05 → 0.2" }]),
      run("b", "GRPO", [{ step: 7, label: "β 0.04 → 0.1" }]),
      run("c", "DPO", [{ step: 12, label: "β 0.1 → 0.5" }]),
      run("a", "PPO", [{ step: 19, label: "lr 1e-4 → 3e-5" }]),
    ];
    for (const plotPx of [150, 245, 420]) {
      const placed = placeMarkers(changes, extent, "step", "objective/kl", plotPx);
      for (const m of placed.filter((p) => p.row >= 0)) {
        const x = (((m.x as number) - 1) / 19) * plotPx;
        const w = m.text.length * MARKER_CHAR_PX + 8;
        const [lo, hi] = m.toLeft ? [x - w, x] : [x, x + w];
        expect(lo >= 0 && hi <= plotPx, `${plotPx} px: "${m.text}" spans ${lo}–${hi}`).toBe(true);
      }
      if (plotPx >= 245)
        expect(placed.filter((p) => p.row >= 0).length, `${plotPx} px`).toBeGreaterThanOrEqual(3);
    }
    // At step 12 of 20 on 245 px the label has 96 px on the right, too few for its 99: it runs leftwards.
    const dpo = placeMarkers(changes, extent, "step", "objective/kl", 245)[2];
    expect([dpo.toLeft, dpo.row >= 0]).toEqual([true, true]);
  });

  it("interleaves the dashes of lines drawn at one x, so every run's colour shows", () => {
    const same = [
      run("a", "PPO", [{ step: 8, label: "β 0.05 → 0.2" }]),
      run("b", "DPO", [{ step: 8, label: "β 0.1 → 0.5" }]),
    ];
    const placed = placeMarkers(
      [...same, run("c", "GRPO", [{ step: 12, label: "β 0.04 → 0.1" }])],
      extent,
      "step",
      "objective/kl",
      600,
    );
    expect(placed.map((m) => [m.dash, m.dashOffset])).toEqual([
      ["4 10", 0],
      ["4 10", -7],
      ["4 3", 0],
    ]);
    // A run's two changes at one x share its dashes (one line is drawn per colour), beside the other run's.
    const twice = placeMarkers(
      [
        run("a", "PPO", [
          { step: 8, label: "β 0.05 → 0.2" },
          { step: 8, label: "lr 1e-4 → 3e-4" },
        ]),
        run("b", "DPO", [{ step: 8, label: "β 0.1 → 0.5" }]),
      ],
      extent,
      "step",
      "objective/kl",
      600,
    );
    expect(twice.map((m) => [m.dash, m.dashOffset])).toEqual([
      ["4 10", 0],
      ["4 10", 0],
      ["4 10", -7],
    ]);
  });

  it("labels as many stacked changes as the plot has rows for", () => {
    // Six runs change lr at the same step: four rows by default, all six on a chart tall enough for eight.
    const six = ["A", "B", "C", "D", "E", "F"].map((l, i) =>
      run(`r${i}`, l, [{ step: 3, label: `lr 0.003 → ${i + 1}e-4` }]),
    );
    const drawn = (rowsAllowed?: number) =>
      placeMarkers(six, extent, "step", "objective/kl", 800, rowsAllowed).filter((m) => m.row >= 0).length;
    expect([drawn(), drawn(8), drawn(2)]).toEqual([4, 6, 2]);
  });

  it("places 150 000 markers of an imported run without running out of stack", () => {
    const many = Array.from({ length: 150_000 }, (_, i) => ({ step: (i % 20) + 1, label: `m${i}` }));
    const placed = placeMarkers([run("a", "PPO", many)], extent, "step", "objective/kl", 600);
    expect(placed).toHaveLength(150_000);
  });
});
