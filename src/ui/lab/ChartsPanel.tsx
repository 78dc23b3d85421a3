/**
 * The three main charts — reward (the run's reward source solid, gold dashed), KL (estimator selectable) and
 * entropy — with the shared view controls: x axis, smoothing, and a legend whose entries toggle runs; under
 * them, once a configuration runs on several seeds, the seeds summary (./SeedsSummary.tsx).
 */
import { useMemo } from "react";
import { seededLabel } from "../../lab/seed_labels";
import { type KlEstimator, useLab, type XAxis } from "../lab_store";
import { Hint } from "./Hint";
import { belowZero, bonKlNote, K1_KEY, K1_NOTE_DOC, KL_AXIS_DOC, k1Note, klAxisNote } from "./kl_note";
import { MetricChart } from "./MetricChart";
import {
  BON_KL_DOC,
  ENTROPY,
  GOLD,
  KL_CHART_UNIT,
  KL_ESTIMATORS,
  REWARD,
  REWARD_Y_LABEL,
} from "./metric_info";
import { runLooks } from "./palette";
import { RunSwatch } from "./RunSwatch";
import { SeedsSummary } from "./SeedsSummary";
import { goldDiffers, linesOf, useMarkers, useVisibleRuns } from "./visible_runs";

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
        yLabel={REWARD_Y_LABEL}
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
      <SeedsSummary />
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

/** X axis, smoothing and the run legend (click to hide or show a run on every chart). */
function ViewControls() {
  const view = useLab((s) => s.view);
  const setView = useLab((s) => s.setView);
  const specs = useLab((s) => s.spec.runs);
  const seed = useLab((s) => s.spec.seed);
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
                {seededLabel(r, seed)}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
