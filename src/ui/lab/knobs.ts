/**
 * How a field of an algorithm's table becomes a control: which fields lock once a run has started (they set
 * the batch shape), the slider mapping (log scale for unit "log" and for wide ranges), the tooltip text and
 * value formatting.
 * Pure functions over src/algorithms/fields.ts (knobs.test.ts).
 */
import { DECIMAL_NUMBER, FIXED_WHAT, type Field, type NumberField } from "../../algorithms/fields";
import { LOSS_BETAS } from "../../lab/linked_settings";
import type { ExperimentSpec, SettingValue } from "../../lab/protocol";
import { roundedSetting, settingNumber } from "../../lab/setting_text";
import { labelsFromGold, TASK_COSTS } from "../../lab/settings";
import type { RunState } from "../lab_store";
import { sig } from "./numbers";

/** Why a field cannot change now, or null when it can: its table marks it fixed (Field.fixed) and the run started. */
export function lockReason(field: Field, started: boolean): string | null {
  if (!started || !field.fixed) return null;
  if (field.fixed === "start")
    return `${field.label} only sets the starting value; once the run has stepped it follows its own update rule. Reset the experiment (or add a new run) to start from another value.`;
  return `${field.label} sets ${FIXED_WHAT[field.fixed]}, which is fixed once the run has started. Reset the experiment (or add a new run) to change it.`;
}

/**
 * One visible line for a card whose run has started and has locked settings (the reason per setting is in its
 * name's card, and a disabled control shows no tooltip in every browser): "Fixed since the run started:
 * prompts/step, max tokens and G. Reset, or add a run, to change them." Null when nothing is locked.
 */
export function lockedSummary(fields: readonly Field[], started: boolean): string | null {
  const names = fields.filter((f) => lockReason(f, started) !== null).map((f) => f.label);
  if (!names.length) return null;
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  const one = names.length === 1;
  return `Fixed since the run started: ${list}. Reset, or add a run, to change ${one ? "it" : "them"}.`;
}

const forTask = new Map<string, Field>();

/**
 * `field` as a run card offers it on `task`: Safe RLHF's cost lists only "length" and the costs the task
 * defines (TASK_COSTS). The same object for the same (field, task), so memoised controls stay memoised.
 */
export function fieldForTask(field: Field, task: ExperimentSpec["task"]): Field {
  if (field.kind !== "enum" || field.key !== "cost") return field;
  const id = `${task}\u0000${field.key}\u0000${field.options.join(",")}`;
  let f = forTask.get(id);
  if (!f) {
    f = { ...field, options: field.options.filter((o) => o === "length" || TASK_COSTS[task].includes(o)) };
    forTask.set(id, f);
  }
  return f;
}

/**
 * A settings change as said to a screen reader: "PPO: β 0.05 → 0.25, from its next step." (`started`: the run
 * has stepped; else "from its first step"). Values as the card writes them (units kept); keys not in `fields`
 * by their key. Pure.
 */
export function changeSentence(
  label: string,
  fields: readonly Field[],
  before: Record<string, SettingValue>,
  patch: Record<string, SettingValue>,
  started: boolean,
): string {
  const parts = Object.entries(patch).map(([k, v]) => {
    const f = fields.find((x) => x.key === k);
    if (!f) return `${k} ${String(before[k] ?? "")} → ${String(v)}`;
    return `${f.label} ${formatSetting(f, settingOf(f, before))} → ${formatSetting(f, v)}`;
  });
  return `${label}: ${parts.join(", ")}, from its ${started ? "next" : "first"} step.`;
}

/**
 * Why a field does nothing under `config` ("only with loss simpo"), or null when it is used: its usedWhen
 * setting (looked up in `fields`) has none of the listed values.
 */
export function unusedReason(
  field: Field,
  fields: readonly Field[],
  config: Record<string, SettingValue>,
): string | null {
  const w = field.usedWhen;
  if (!w) return null;
  const other = fields.find((f) => f.key === w.key);
  if (!other) return null;
  if (w.values.includes(settingOf(other, config) as string | boolean)) return null;
  const shown = w.values.map((v) => (typeof v === "boolean" ? (v ? "on" : "off") : v)).join(" or ");
  return `only used with ${other.label} ${shown}`;
}

/** The value a run uses: its override, else the field's default. */
export function settingOf(field: Field, config: Record<string, SettingValue>): SettingValue {
  return config[field.key] ?? field.default;
}

/** A setting as text: numbers with 3 significant digits (exponents below 1e-3: 1e-4, 3e-5), units kept. */
export function formatSetting(field: Field, v: SettingValue): string {
  if (typeof v === "boolean") return v ? "on" : "off";
  if (typeof v === "string") return v;
  // Below 1e-3 as the papers write them (1e-4 beside 3e-5, not 0.0001); sig's thousands separators above.
  const s = field.kind === "int" ? String(v) : Math.abs(v) < 1e-3 ? roundedSetting(v, 3) : sig(v, 3);
  const unit = field.kind !== "enum" && field.kind !== "bool" ? field.unit : undefined;
  return unit && unit !== "log" ? `${s} ${unit}` : s;
}

/** The range of a number field as text: "[0, 1]", "[1, 256] tokens", "[0.001, 1,000] nats (log scale)". */
export function rangeText(field: NumberField): string {
  const r = `[${sig(field.min)}, ${sig(field.max)}]`;
  const unit = field.unit && field.unit !== "log" ? ` ${field.unit}` : "";
  return logSlider(field) ? `${r}${unit} (log scale)` : `${r}${unit}`;
}

/**
 * The tooltip's lines: meaning, range or options, default, source, TRL's name (`trl`: what the run's TRL class
 * calls it, src/lab/export/trl_names.ts; else the field table's name).
 */
export function hintLines(field: Field, trl?: string): { label: string; text: string }[] {
  const lines = [{ label: "", text: field.doc }];
  if (field.kind === "number" || field.kind === "int") lines.push({ label: "Range", text: rangeText(field) });
  if (field.kind === "enum") lines.push({ label: "Options", text: field.options.join(" · ") });
  lines.push({ label: "Default", text: formatSetting(field, field.default) });
  lines.push({ label: "Source", text: field.source });
  const name = trl ?? field.trl;
  if (name) lines.push({ label: "TRL", text: name });
  return lines;
}

/** Slider resolution: positions 0..SLIDER_STEPS. */
export const SLIDER_STEPS = 1000;

/**
 * Where a log slider's scale starts: the field's minimum when > 0; else, for a field that is log-scale by unit
 * (a learning rate), 1e-7 or max·1e-6; else a thousandth of its default (β 0.05 → 5e-5, d 8 → 0.008), so the
 * slider's travel covers useful values. Typed input still allows anything in range.
 */
function logFloor(f: NumberField): number {
  if (f.min > 0) return f.min;
  return f.unit === "log" ? Math.min(f.max * 1e-6, 1e-7) : Number(f.default) / 1000;
}

/**
 * Whether a number field's slider is logarithmic: unit "log", or a float field whose default sits in the first
 * 2 % of a linear range (β 0.05 of [0, 10], a KL target 6 of [0.001, 1000]: useful values a linear slider
 * cannot reach by dragging).
 */
export function logSlider(f: NumberField): boolean {
  if (f.unit === "log") return true;
  const d = Number(f.default);
  return f.kind === "number" && d > 0 && f.min >= 0 && (d - f.min) / (f.max - f.min) < 0.02;
}

/**
 * Slider position (0..SLIDER_STEPS) of a value: linear, or logarithmic (logSlider). On a log slider whose
 * field starts at 0, position 0 is 0 itself (β = 0, no clipping bonus, …) and the scale starts at logFloor.
 */
export function toSlider(f: NumberField, v: number): number {
  const clamp = (t: number) => Math.round(Math.min(Math.max(t, 0), 1) * SLIDER_STEPS);
  if (logSlider(f)) {
    if (f.min === 0 && v <= 0) return 0;
    const lo = Math.log10(logFloor(f));
    const hi = Math.log10(f.max);
    return Math.max(f.min === 0 ? 1 : 0, clamp((Math.log10(Math.max(v, logFloor(f))) - lo) / (hi - lo)));
  }
  return clamp((v - f.min) / (f.max - f.min));
}

/** The value at a slider position, rounded to 2 significant digits in log scale (1e-4, 3.2e-5) and to ints for int fields. */
export function fromSlider(f: NumberField, pos: number): number {
  const t = pos / SLIDER_STEPS;
  let v: number;
  if (logSlider(f)) {
    const lo = Math.log10(logFloor(f));
    const hi = Math.log10(f.max);
    v = f.min === 0 && pos <= 0 ? 0 : Number((10 ** (lo + t * (hi - lo))).toPrecision(2));
    // The default's own position gives the default (10000, not 9900 from a rounded position).
    if (pos > 0 && pos === toSlider(f, Number(f.default))) v = Number(f.default);
  } else {
    v = f.min + t * (f.max - f.min);
    v = Number(v.toPrecision(3));
  }
  if (f.kind === "int") v = Math.round(v);
  return Math.min(Math.max(v, f.min), f.max);
}

/** Whether a number field gets a slider: float fields, and int fields with a small range. */
export function hasSlider(f: NumberField): boolean {
  return f.kind === "number" ? Number.isFinite(f.max - f.min) : f.max - f.min <= 64;
}

/** The round values a log knob steps through: ten a decade, 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k. */
const LOG_STEPS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8];

/** The n-th round value (n = 10·k + i: LOG_STEPS[i] × 10^k). */
const logStep = (n: number) =>
  Number((LOG_STEPS[((n % 10) + 10) % 10] * 10 ** Math.floor(n / 10)).toPrecision(2));

/** The round value `count` steps from v > 0 (the first strictly above it, or below it, then on). */
function roundLogNeighbour(v: number, dir: 1 | -1, count: number): number {
  let n = 10 * Math.floor(Math.log10(v)) - 1;
  while (logStep(n + 1) <= v * (1 + 1e-9)) n++; // logStep(n) ≤ v < logStep(n + 1)
  if (dir > 0) return logStep(n + count);
  return logStep((logStep(n) < v * (1 - 1e-9) ? n : n - 1) - (count - 1));
}

/**
 * The value one key press away (the knob's ↑/↓ and its slider's arrows; `big` for PageUp/PageDown or Shift): an
 * int moves by 1 (big: 10); a log slider's value to the next round value (ten a decade: β 0.05 → 0.06, lr 1e-4 →
 * 1.2e-4; big: five of them, half a decade), down to 0 below its scale when 0 is allowed; a linear slider's by 1 %
 * of its travel (big: 10 %); a number without a slider by 10 % of itself (big: 100 %). Always a different value,
 * unless at the end of the range; clamped to it.
 */
export function nudge(f: NumberField, value: number, dir: 1 | -1, big = false): number {
  const clamp = (v: number) => Math.min(Math.max(v, f.min), f.max);
  if (f.kind === "int") return clamp(value + dir * (big ? 10 : 1));
  if (!hasSlider(f))
    return clamp(Number((value + dir * (Math.abs(value) || 1) * (big ? 1 : 0.1)).toPrecision(3)));
  if (logSlider(f)) {
    const floor = logFloor(f);
    // Below the scale (0): up to its first round value (the floor itself when round), down to the minimum.
    if (value < floor) return dir > 0 ? clamp(roundLogNeighbour(floor * (1 - 1e-6), 1, 1)) : f.min;
    const v = roundLogNeighbour(value, dir, big ? 5 : 1);
    return v < floor ? f.min : clamp(v);
  }
  const start = toSlider(f, value);
  for (let p = start + dir * (big ? 100 : 10); p >= 0 && p <= SLIDER_STEPS; p += dir * 10) {
    const v = fromSlider(f, p);
    if (dir > 0 ? v > value : v < value) return v;
  }
  return dir > 0 ? f.max : f.min;
}

/** Parse typed text for a number field. @returns the value, or an error message naming the range. */
export function parseNumber(f: NumberField, text: string): number | string {
  const t = text.trim();
  // Decimal notation only: Number() would also read "0x10" as 16 and "" as 0.
  // A whole number with thousands separators ("1,000", German "1.000"): not a decimal in a whole-number field.
  if (f.kind === "int" && /^[+-]?\d{1,3}([.,]\d{3})+$/.test(t))
    return `${f.label} must be a whole number without separators: ${t.replace(/[.,]/g, "")}`;
  // "10.000" in a decimal field that takes thousands (a horizon of 10,000): a German thousand, or ten? Both said.
  if (f.kind === "number" && f.max >= 1000 && /^[+-]?\d{1,3}(\.\d{3})+$/.test(t)) {
    const decimal = t.split(".").length === 2 ? `, or ${Number(t)} with a decimal point` : "";
    return `${f.label} must be a number without separators: ${t.replaceAll(".", "")}${decimal}`;
  }
  // "0,1" is a decimal comma; "1,024" may be a thousands separator: say both ways rather than guess.
  if (/^[+-]?\d+,\d{3}$/.test(t))
    return `${f.label} must be a number without separators: ${t.replace(",", "")}, or ${t.replace(",", ".")} with a decimal point`;
  if (/^[+-]?\d+,\d+$/.test(t))
    return `${f.label} must be a number: write decimals with a point (${t.replace(",", ".")})`;
  const decimal = DECIMAL_NUMBER.test(t);
  const v = decimal ? Number(t) : Number.NaN;
  const unit = f.unit && f.unit !== "log" ? ` ${f.unit}` : "";
  const range = `${f.label} must be in [${sig(f.min)}, ${sig(f.max)}]${unit}`;
  if (decimal && !Number.isFinite(v)) return range; // "1e400": a number, beyond any range
  if (!Number.isFinite(v)) return `${f.label} must be a number`;
  // "1e-400" reads as 0: say so rather than train with 0 (a learning rate, say) unasked.
  if (v === 0 && /[1-9]/.test(t.replace(/e.*$/i, "")))
    return `${f.label} ${t} is too small to be told from 0 (type 0 if 0 is meant)`;
  if (f.kind === "int" && !Number.isInteger(v)) return `${f.label} must be an integer`;
  if (v < f.min || v > f.max) return range;
  return v === 0 ? 0 : v; // "-0" is 0
}

/**
 * The message for a typed value {@link parseNumber} refused (`why`), once the field shows the value kept instead:
 * "β must be in [0, 10]: “-5” not applied, β stays 0.05." Without it the message would seem to speak of that value.
 */
export function refusedText(f: NumberField, typed: string, why: string, kept: number): string {
  const t = typed.trim();
  const stays = `${f.label} stays ${settingNumber(kept)}`;
  return t ? `${why}: “${t}” not applied, ${stays}.` : `${why}; ${stays}.`;
}

/**
 * With PPO's adaptive KL controller on, β moves every step (Ziegler et al. 2019): the β the run used at its
 * latest step (its kl_coef metric), since the control shows only the starting β. Null otherwise.
 */
export function adaptiveBetaNote(run: RunState): string | null {
  if (run.spec.algo !== "ppo" || run.spec.config.adaptiveKl !== true) return null;
  const last = run.history.at(-1);
  const beta = last?.metrics.kl_coef;
  // Six digits: at the default horizon β moves by ~1e-5 a step, which three would hide.
  return last && beta !== undefined ? `adaptive: β = ${sig(beta, 6)} at step ${last.step}` : null;
}

/** GRPO's ε_high at 0 (its default): what the loss uses instead, ε (src/algorithms/grpo.ts upperClip). */
export function upperClipNote(fields: readonly Field[], config: Record<string, SettingValue>): string | null {
  const [eps, high] = ["epsilon", "epsilonHigh"].map((k) => fields.find((f) => f.key === k));
  if (!eps || !high || settingOf(high, config) !== 0) return null;
  return `0: uses ε = ${sig(Number(settingOf(eps, config)), 3)}`;
}

/**
 * DPO's β under the SimPO loss: SimPO scales length-normalised log-probs, and its paper uses β = 2 to 2.5
 * (Meng et al. 2024), twenty times DPO's default 0.1 (a link that sets the loss alone keeps 0.1; the CLI moves it). A
 * note while β < 1; null otherwise and for every other algorithm or loss.
 */
export function simpoBetaNote(algo: string, config: Record<string, SettingValue>): string | null {
  if (algo !== "dpo" || config.lossType !== "simpo") return null;
  const beta = Number(config.beta ?? LOSS_BETAS.sigmoid);
  return beta < 1 ? "SimPO's paper uses β = 2 to 2.5 on its length-normalised log-probs" : null;
}

/**
 * The reward menu on a run that does not train on it (DPO, KTO, ORPO learn from the annotator's preference
 * labels, made from the gold scores): what it does there; KTO with labels = threshold: what it labels by.
 * Null for the algorithms that optimise it.
 */
export function rewardNote(algo: string, config: Record<string, SettingValue> = {}): string | null {
  if (algo === "kto" && !labelsFromGold(algo, config))
    return "labels this run's samples: a sample is desirable when this reward scores it ≥ the threshold";
  return labelsFromGold(algo, config)
    ? "only scores the charted samples: this run learns from preference labels"
    : null;
}

/**
 * The completion length a run really samples when its "max new tokens" does not fit: the start model's
 * context minus the task's longest prompt (src/lab/experiment_change.ts startRoom; src/algorithms/run.ts caps
 * it there). Null when the setting fits.
 */
export function lengthNote(value: SettingValue, room: number): string | null {
  return typeof value === "number" && room >= 1 && value > room
    ? `samples ${room} at most: the start model's context leaves ${room} after the longest prompt`
    : null;
}
