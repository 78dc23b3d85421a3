/**
 * The experiment-level and view settings as declarative field tables, in the style of the algorithms' tables
 * (src/algorithms/fields.ts): one row per setting (key, label, doc, kind, default, range/options). Together
 * with the run field tables of src/lab/registry.ts they are the one settings table that drives the controls,
 * the URL (src/lab/url.ts), IndexedDB and export. Plain data: no DOM, no React. The experiment the lab opens
 * with is src/lab/defaults.ts's.
 */
import type { Field } from "../algorithms/fields";
import { PRESET_IDS } from "./presets/ids";

/** Task, start model and seed: what every run shares. */
export const EXPERIMENT_FIELDS = [
  {
    key: "task",
    label: "task",
    kind: "enum",
    default: "sentiment",
    options: ["sentiment", "arithmetic"],
    doc: "What the policy is rewarded for: positive sentiment (AFINN lexicon) or exact 2-digit sums.",
    source: "implementation",
  },
  {
    key: "model",
    label: "start model",
    kind: "enum",
    default: "sft",
    options: ["sft", "nano", "tiny", "small"],
    doc: "The task's shipped SFT checkpoint, or a preset initialised fresh from the seed (tests, demos).",
    source: "implementation",
  },
  {
    key: "seed",
    label: "seed",
    kind: "int",
    default: 0,
    min: 0,
    max: 2147483647,
    doc: "Seeds the start model (presets), the prompt order and sampling: equal seeds, equal experiments.",
    source: "implementation",
  },
  {
    key: "steps",
    label: "stop at step",
    kind: "int",
    default: 0,
    min: 0,
    max: 100000,
    doc: "Pause when every run has done this many steps (a lesson's length); 0 = train until paused.",
    source: "implementation",
  },
  {
    key: "preset",
    label: "lesson",
    kind: "enum",
    default: "none",
    options: ["none", ...PRESET_IDS],
    doc: "The guided lesson this experiment was opened from (shows its “what to watch” card); none = free play.",
    source: "implementation",
  },
] as const satisfies readonly Field[];

/** Chart settings worth sharing in a link (legend toggles and the sample colour mode are not). */
export const VIEW_FIELDS = [
  {
    key: "xAxis",
    label: "x-axis",
    kind: "enum",
    default: "step",
    options: ["step", "samples", "tokens", "kl", "sqrt_kl"],
    doc: "What the charts plot against: steps, completions sampled, tokens trained on, the KL(π‖π_ref) of the step, or its square root (Gao et al. 2022 plot reward against √KL).",
    source: "implementation",
  },
  {
    key: "klEstimator",
    label: "KL estimator",
    kind: "enum",
    default: "objective/kl",
    options: ["objective/kl", "objective/kl_k2", "objective/kl_k3", "objective/kl_exact"],
    doc: "Which KL(π‖π_ref) the KL chart shows: k1, k2, k3 (Schulman 2020) or the exact sum over the vocabulary.",
    source: "Schulman 2020, Approximating KL divergence",
  },
  {
    key: "smoothing",
    label: "smoothing",
    kind: "number",
    default: 0.6,
    min: 0,
    max: 0.99,
    doc: "Exponential moving-average weight of the plotted curves (TensorBoard style); 0 = raw.",
    source: "implementation",
  },
] as const satisfies readonly Field[];

/** The view settings a link carries (a subset of the lab store's ViewSettings, same names and types). */
export interface SharedView {
  xAxis: (typeof VIEW_FIELDS)[0]["options"][number];
  klEstimator: (typeof VIEW_FIELDS)[1]["options"][number];
  smoothing: number;
}

export const DEFAULT_SHARED_VIEW: SharedView = {
  xAxis: VIEW_FIELDS[0].default,
  klEstimator: VIEW_FIELDS[1].default,
  smoothing: VIEW_FIELDS[2].default,
};

/** Most runs an experiment (and so a link or an import) may hold. */
export const MAX_RUNS = 12;
/** Run ids: short, URL- and filename-safe. */
export const RUN_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** Longest run label (characters). */
export const MAX_LABEL = 60;
