/**
 * The three main charts — reward (the run's reward source solid, gold dashed), KL (estimator selectable) and
 * entropy — with the shared view controls: x axis, smoothing, and a legend whose entries toggle runs.
 */
import { startTransition, useEffect, useMemo, useState } from "react";
import type { Marker, MetricPoint, RunSpec } from "../../lab/protocol";
import { type KlEstimator, type LabState, type RunState, useLab, type XAxis } from "../lab_store";
import { Hint } from "./Hint";
import { firstAtOrAfter, rewardEverNotGold } from "./history_memo";
import { belowZero, bonKlNote, K1_KEY, K1_NOTE_DOC, KL_AXIS_DOC, k1Note, klAxisNote } from "./kl_note";
import { type ChartLine, type ChartMarkers, MetricChart } from "./MetricChart";
import { BON_KL_DOC, ENTROPY, GOLD, KL_CHART_UNIT, KL_ESTIMATORS, REWARD } from "./metric_info";
import { runLooks } from "./palette";
import { RunSwatch } from "./RunSwatch";
import type { RunShape } from "./run_shape";
import { useStableItems } from "./stable";

/**
 * A KL axis is not monotone in the step: said on its button (a line follows its steps, back left where the KL
 * fell; smoothed, it is drawn at the KL's EMA: series.ts smoothsX).
 */
const KL_AXIS_NOTE =
  ": each run's line follows its steps, back to the left where its KL fell; with smoothing on, the thick line sits at the smoothed KL, the faint one at each batch's estimate";

const X_AXES: { axis: XAxis; name: string; title: string }[] = [
  { axis: "step", name: "Step", title: "Plot against step" },
  { axis: "samples", name: "Samples", title: "Plot against samples" },
  { axis: "tokens", name: "Tokens", title: "Plot against tokens" },
  { axis: "kl", name: "KL", title: `Plot against KL${KL_AXIS_NOTE}` },
  {
    axis: "sqrt_kl",
    name: "√KL",
    title: `Plot against √KL, as Gao et al. (2022) plot reward${KL_AXIS_NOTE}`,
  },
];

export interface VisibleRun {
  run: RunState;
  colour: string;
  /** Drawn dotted: its colour is another run's too (more runs than colours; ./palette.ts isDotted). */
  dotted?: boolean;
  /** Its shape (./run_shape.ts): legend swatches and the end of its lines (none: no shape drawn). */
  shape?: RunShape;
  /** The first step its lines show (see {@link drawnFrom}); 0 when absent. */
  from?: number;
}

/**
 * The step a run's lines start at. A fork's history up to its fork step is a copy of its source's (and so, up
 * to the source's own fork step, of the source's source…): its lines start where it branched off the nearest
 * of those runs still on the charts, so that they do not hide that run's; 0 when none is shown.
 */
export function drawnFrom(spec: RunSpec, specs: readonly RunSpec[], shown: ReadonlySet<string>): number {
  let from = Number.POSITIVE_INFINITY;
  const seen = new Set([spec.id]);
  for (let f = spec.forkOf; f && !seen.has(f.id); ) {
    const id = f.id;
    from = Math.min(from, f.step);
    if (shown.has(id)) return from;
    seen.add(id);
    f = specs.find((r) => r.id === id)?.forkOf;
  }
  return 0;
}

export function visibleRuns(s: LabState): VisibleRun[] {
  const looks = runLooks(s.spec.runs);
  const runs = s.spec.runs.filter((r) => s.runs[r.id] && !s.view.hidden.includes(r.id));
  const shown = new Set(runs.map((r) => r.id));
  return runs.map((r) => ({
    run: s.runs[r.id],
    colour: looks[r.id].colour,
    ...(looks[r.id].dotted && { dotted: true }),
    shape: looks[r.id].shape,
    from: drawnFrom(r, s.spec.runs, shown),
  }));
}

/**
 * The visible runs with their colours, in the experiment's order, for the charts and samples. Not read with a
 * store hook: a worker update lands in React state inside startTransition, so React renders the charts in a
 * background render that yields to input every few ms (and restarts when a newer update arrives) instead of
 * one long main-thread task per update. Run cards and counters read the store directly and update at once.
 */
export function useVisibleRuns(): VisibleRun[] {
  const [visible, setVisible] = useState(() => visibleRuns(useLab.getState()));
  useEffect(
    () =>
      useLab.subscribe((s, prev) => {
        if (s.runs === prev.runs && s.spec.runs === prev.spec.runs && s.view.hidden === prev.view.hidden)
          return;
        startTransition(() => setVisible(visibleRuns(s)));
      }),
    [],
  );
  return visible;
}

/** The lines of one metric for every visible run. */
export function linesOf(
  visible: readonly VisibleRun[],
  metric: string,
  extra?: Partial<ChartLine>,
): ChartLine[] {
  return visible.map(({ run, colour, dotted, shape, from }) => ({
    runId: run.spec.id,
    runLabel: run.spec.label,
    colour,
    ...(dotted && { dotted }),
    ...(shape && { shape }),
    metric,
    history: run.history,
    from: from ?? 0,
    ...extra,
  }));
}

/** Each markers array without the markers before a step (a fork's copies of its source's), kept per array. */
const markersFrom = new WeakMap<readonly Marker[], { from: number; kept: readonly Marker[] }>();

/** A run's own markers: a fork drawn from step `from` leaves the markers up to there to its source. */
function ownMarkers(markers: readonly Marker[], from: number): readonly Marker[] {
  if (from === 0 || !markers.length) return markers;
  const last = markersFrom.get(markers);
  if (last?.from === from) return last.kept;
  const kept = markers.filter((m) => m.step > from);
  markersFrom.set(markers, { from, kept });
  return kept;
}

/** The history a run without markers passes: none is needed, and a constant keeps the list's identity. */
const NO_HISTORY: readonly MetricPoint[] = [];

/** The history each markers array was last placed with (see {@link markerHistory}). */
const placedWith = new WeakMap<readonly Marker[], readonly MetricPoint[]>();

/**
 * The history a run's markers are placed with (series.ts markerX: the first point at or after a marker's step).
 * While every marker's point is the same object in the live history as in the one they were last placed with,
 * that older array is returned, so a run that merely steps after a settings change does not make every chart
 * redraw; a pending marker (its step not trained yet) or a rewritten history gives the live one.
 */
export function markerHistory(
  markers: readonly Marker[],
  history: readonly MetricPoint[],
): readonly MetricPoint[] {
  if (!markers.length) return NO_HISTORY;
  const last = placedWith.get(markers);
  if (last && last !== history) {
    const at = (h: readonly MetricPoint[], m: Marker) => h[firstAtOrAfter(h, m.step)];
    if (
      markers.every((m) => {
        const p = at(history, m);
        return p !== undefined && p === at(last, m);
      })
    )
      return last;
  }
  placedWith.set(markers, history);
  return history;
}

/**
 * Each visible run's settings markers, with the history that places them on a samples, tokens or KL axis
 * ({@link markerHistory}), so the list stays the same (see stable.ts) while runs merely step.
 */
export function markersOf(visible: readonly VisibleRun[]): ChartMarkers[] {
  return visible.map(({ run, colour, from }) => {
    const markers = ownMarkers(run.markers, from ?? 0);
    return {
      runId: run.spec.id,
      runLabel: run.spec.label,
      colour,
      markers,
      history: markerHistory(markers, run.history),
    };
  });
}

/** The visible runs' markers for the charts, the same list while no marker moves (see {@link markersOf}). */
export function useMarkers(visible: readonly VisibleRun[]): readonly ChartMarkers[] {
  return useStableItems(useMemo(() => markersOf(visible), [visible]));
}

export function ChartsPanel() {
  const visible = useVisibleRuns();
  const kl = useLab((s) => s.view.klEstimator);
  const markers = useMarkers(visible);
  // A run that optimises the gold score has one line: its dashed gold line would lie under its solid one and
  // double its rows in the hover card.
  const reward = useMemo(
    () => [
      ...linesOf(visible, REWARD.key),
      ...linesOf(visible.filter(goldDiffers), GOLD.key, { dashed: true, name: "gold" }),
    ],
    [visible],
  );
  const goldShown = reward.some((l) => l.metric === GOLD.key);
  const klLines = useMemo(() => linesOf(visible, kl), [visible, kl]);
  const entropy = useMemo(() => linesOf(visible, ENTROPY.key), [visible]);
  const klInfo = KL_ESTIMATORS.find((k) => k.key === kl) ?? KL_ESTIMATORS[0];
  const below = kl === K1_KEY ? k1Note(belowZero(klLines, K1_KEY)) : null;
  const axisNote = klAxisNote(useLab((s) => s.view.xAxis));
  const bonNote = bonKlNote(
    kl,
    visible.map((v) => v.run.spec.algo),
  );
  const klExtra = useMemo(() => {
    const notes: [string, string, string | null][] = [
      ["kl-bon-note", BON_KL_DOC, bonNote],
      ["k1-negative", K1_NOTE_DOC, below],
      ["kl-axis-note", KL_AXIS_DOC, axisNote],
    ];
    if (notes.every(([, , text]) => text === null)) return KL_SELECT;
    return (
      <>
        {KL_SELECT}
        {notes.map(([id, card, text]) =>
          text === null ? null : (
            <Hint key={id} className="chart-note" testId={id} card={card}>
              {text}
            </Hint>
          ),
        )}
      </>
    );
  }, [below, axisNote, bonNote]);
  return (
    <section className="charts" aria-label="Training curves" id="lab-charts" tabIndex={-1}>
      <h2 className="visually-hidden">Training curves</h2>
      <ViewControls />
      <MetricChart
        id="reward"
        title={REWARD.title}
        doc={`${REWARD.doc} Gold: ${GOLD.doc}`}
        metric="reward, reward_gold"
        lines={reward}
        markers={markers}
        height="clamp(230px, 32vh, 440px)"
        extra={goldShown ? REWARD_KEY : REWARD_IS_GOLD_KEY}
      />
      <div className="chart-pair">
        <MetricChart
          id="kl"
          title="KL(π ‖ π_ref)"
          unit={KL_CHART_UNIT}
          doc={`Per-sequence KL of the policy from the reference, batch mean. ${klInfo.name}: ${klInfo.doc}. ${BON_KL_DOC}`}
          metric={klInfo.key}
          lines={klLines}
          markers={markers}
          height="clamp(190px, 26vh, 360px)"
          extra={klExtra}
        />
        <MetricChart
          id="entropy"
          title={ENTROPY.title}
          unit={ENTROPY.unit}
          doc={ENTROPY.doc}
          metric={ENTROPY.key}
          lines={entropy}
          markers={markers}
          height="clamp(190px, 26vh, 360px)"
        />
      </div>
    </section>
  );
}

/** The KL chart's estimator selector. */
function KlSelect() {
  const kl = useLab((s) => s.view.klEstimator);
  const setView = useLab((s) => s.setView);
  const info = KL_ESTIMATORS.find((k) => k.key === kl) ?? KL_ESTIMATORS[0];
  return (
    <label className="inline-select">
      <span className="visually-hidden">KL estimator plotted</span>
      <select
        data-testid="kl-estimator"
        value={kl}
        title={`${info.doc} This only changes what the charts show; a run's own “KL est.” setting decides the penalty it trains with.`}
        onChange={(e) => setView({ klEstimator: e.target.value as KlEstimator })}
      >
        {KL_ESTIMATORS.map((k) => (
          <option key={k.key} value={k.key}>
            {k.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Chart header elements, created once so the memoised charts see the same props. */
const KL_SELECT = <KlSelect />;

/** Line styles of the reward chart. */
function RewardKey() {
  return (
    <span className="line-key muted">
      <span className="key-line" /> run's reward <span className="key-line dashed" /> gold
    </span>
  );
}

const REWARD_KEY = <RewardKey />;

/** The key while every run shown optimises the gold score (one line each). */
const REWARD_IS_GOLD_KEY = (
  <span
    className="line-key muted"
    title="These runs optimise the gold score itself: their reward is gold, one line each. Runs on a learned reward model add their gold score dashed."
  >
    <span className="key-line" /> reward (= gold)
  </span>
);

/**
 * Whether a run's gold score gets a line of its own: it optimises something else now (a learned reward model),
 * or its reward ever differed from its gold score (it did before, or a cost entered it).
 */
export function goldDiffers({ run }: VisibleRun): boolean {
  if ((run.spec.config.reward ?? "gold") !== "gold") return true;
  return rewardEverNotGold(run.history);
}

/** X axis, smoothing and the run legend (click to hide or show a run on every chart). */
function ViewControls() {
  const view = useLab((s) => s.view);
  const setView = useLab((s) => s.setView);
  const specs = useLab((s) => s.spec.runs);
  const looks = runLooks(specs);
  const toggle = (id: string) =>
    setView({
      hidden: view.hidden.includes(id) ? view.hidden.filter((h) => h !== id) : [...view.hidden, id],
    });
  return (
    <div className="view-controls">
      {/* biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons in a flex box, where a fieldset's legend does not lay out */}
      <div className="segmented" role="group" aria-labelledby="x-axis-label">
        <span className="eyebrow" id="x-axis-label">
          x axis
        </span>
        {X_AXES.map((a) => (
          <button
            key={a.axis}
            type="button"
            data-testid={`x-${a.axis}`}
            aria-pressed={view.xAxis === a.axis}
            title={a.title}
            onClick={() => setView({ xAxis: a.axis })}
          >
            {a.name}
          </button>
        ))}
      </div>
      <label
        className="smoothing"
        title="Exponential moving average (TensorBoard style); the raw curve stays faint"
      >
        <span className="eyebrow">Smoothing</span>
        <input
          type="range"
          min={0}
          max={0.99}
          step={0.01}
          value={view.smoothing}
          aria-label="Smoothing"
          data-testid="smoothing"
          onChange={(e) => setView({ smoothing: Number(e.target.value) })}
        />
        <span className="smoothing-value">{view.smoothing.toFixed(2)}</span>
      </label>
      <ul className="legend" aria-label="Runs on the charts and samples (click to hide or show)">
        {specs.map((r) => {
          const shown = !view.hidden.includes(r.id);
          return (
            <li key={r.id}>
              <button
                type="button"
                className={`legend-item${shown ? "" : " legend-off"}`}
                aria-pressed={shown}
                data-testid={`legend-${r.id}`}
                title={
                  shown
                    ? `Hide ${r.label} on the charts and in the samples`
                    : `Show ${r.label} on the charts and in the samples`
                }
                onClick={() => toggle(r.id)}
              >
                <RunSwatch look={looks[r.id]} />
                {r.label}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
