/**
 * The Pipeline view saved with its models (src/lab/persist.ts SavedPipeline.view, written by ./pipeline_store.ts
 * pipelineViewState) as the view can show it again (./session.ts): storage may hold one of another version of the
 * lab, or one written by something else, and the view, the controls and the link (./url_sync.ts) take what the
 * store holds. Its settings go through the field check a link's Pipeline settings go through (src/lab/url.ts): a
 * bad one keeps its default. A stage comes back as a finished one only with a well-formed result (its curves'
 * malformed points and evaluations left out), else as not trained. What was not read is said; nothing throws.
 */
import { isStep } from "../../lab/metric_point";
import {
  PIPELINE_FIELDS,
  type PipelineEval,
  type PipelineProgress,
  type PipelineSettings,
  type PipelineStage,
  type PipelineStageResult,
} from "../../lab/pipeline/fields";
import { checkNonDefault, isRecord, issueText, kindOf } from "../../lab/spec_check";
import { NOTICE_ISSUES } from "../../lab/url";
import {
  DEFAULT_PIPELINE_SETTINGS,
  type PipelineViewState,
  STAGE_NAMES,
  type StageState,
} from "./pipeline_store";

const isFiniteNumber = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const isShare = (x: unknown): x is number => isFiniteNumber(x) && x >= 0 && x <= 1;

/** A held-out evaluation (its gold accuracy NaN when no pair was untied). */
function isEval(x: unknown): x is PipelineEval {
  return (
    isRecord(x) &&
    isStep(x.step) &&
    isStep(x.pairs) &&
    isShare(x.labelAccuracy) &&
    (Number.isNaN(x.goldAccuracy) || isShare(x.goldAccuracy))
  );
}

/** One step of `stage` as the view draws it (step, length, loss, the batch's accuracy). */
function isPoint(x: unknown, stage: PipelineStage): x is PipelineProgress {
  return (
    isRecord(x) &&
    x.stage === stage &&
    isStep(x.step) &&
    isStep(x.steps) &&
    isFiniteNumber(x.loss) &&
    (x.accuracy === undefined || isShare(x.accuracy))
  );
}

/** What `stage` reported when it finished. */
function isResult(x: unknown, stage: PipelineStage): x is PipelineStageResult {
  return (
    isRecord(x) &&
    x.stage === stage &&
    isStep(x.steps) &&
    (x.planned === undefined || isStep(x.planned)) &&
    isFiniteNumber(x.firstLoss) &&
    isFiniteNumber(x.lastLoss) &&
    isFiniteNumber(x.seconds) &&
    x.seconds >= 0 &&
    (x.model === undefined || typeof x.model === "string") &&
    (x.evalBefore === undefined || isEval(x.evalBefore)) &&
    (x.evalAfter === undefined || isEval(x.evalAfter))
  );
}

const isSample = (x: unknown): x is NonNullable<StageState["sample"]> =>
  isRecord(x) && typeof x.prompt === "string" && typeof x.completion === "string";

const notTrained = (): StageState => ({
  status: "idle",
  points: [],
  sample: null,
  evals: [],
  result: null,
  error: null,
});

/** A saved stage: finished with a well-formed result, else not trained (saved so, or said in `issues`). */
function readStage(raw: unknown, stage: PipelineStage, issues: string[]): StageState {
  const name = `the ${STAGE_NAMES[stage]} stage`;
  if (raw === undefined || (isRecord(raw) && raw.status === "idle")) return notTrained();
  if (!isRecord(raw) || raw.status !== "done" || !isResult(raw.result, stage)) {
    issues.push(`${name}'s result is not readable; shown as not trained`);
    return notTrained();
  }
  const list = (x: unknown) => (Array.isArray(x) ? x : []);
  const points = list(raw.points).filter((p) => isPoint(p, stage));
  const evals = list(raw.evals).filter(isEval);
  const dropped = list(raw.points).length - points.length + list(raw.evals).length - evals.length;
  if (dropped > 0)
    issues.push(`${name}'s curves had ${dropped} unreadable point${dropped > 1 ? "s" : ""}; left out`);
  return {
    status: "done",
    points,
    sample: isSample(raw.sample) ? { prompt: raw.sample.prompt, completion: raw.sample.completion } : null,
    evals,
    result: raw.result,
    error: null,
  };
}

/**
 * The saved view `raw` as the store takes it (pipeline_store.ts restore), and the notice's line on what could
 * not be read (null when everything could): not an object, nothing of it (defaults, stages not trained). A view
 * not read whole is marked `repaired`: the Pipeline saver writes it back as shown, with the models stored with it
 * (./pipeline_saver.ts), so the notice comes once.
 */
export function savedPipelineView(
  raw: unknown,
  /** The stages whose models storage holds (SavedPipeline.models): one shown as not trained is said. */
  stored: { sft: boolean; rm: boolean } = { sft: false, rm: false },
): { view: PipelineViewState; line: string | null } {
  const issues: string[] = [];
  if (!isRecord(raw)) issues.push(`the view is ${kindOf(raw)}; its defaults`);
  const v = isRecord(raw) ? raw : {};
  if (v.settings !== undefined && !isRecord(v.settings))
    issues.push("the Pipeline's settings are not readable; defaults");
  const settings = isRecord(v.settings)
    ? checkNonDefault("Pipeline", PIPELINE_FIELDS, v.settings, issues)
    : {};
  const handedOff = typeof v.handedOff === "string" && v.handedOff.length > 0 ? v.handedOff : null;
  if (handedOff === null && v.handedOff !== undefined && v.handedOff !== null)
    issues.push("the hand-off's description is not readable; none shown");
  const view: PipelineViewState = {
    settings: { ...DEFAULT_PIPELINE_SETTINGS, ...(settings as Partial<PipelineSettings>) },
    sft: readStage(v.sft, "sft", issues),
    rm: readStage(v.rm, "rm", issues),
    handedOff,
    handOffOld: v.handOffOld === true,
  };
  if (issues.length === 0) return { view, line: null };
  const more = issues.length > NOTICE_ISSUES ? `; and ${issues.length - NOTICE_ISSUES} more` : "";
  // A stage whose model is stored but whose view could not be read shows as not trained: its model cannot be used.
  const hidden = (["sft", "rm"] as const).filter((k) => stored[k] && view[k].status !== "done");
  const models = hidden.length
    ? ` The ${hidden.map((k) => (k === "sft" ? "SFT" : "reward")).join(" and ")} model${hidden.length > 1 ? "s" : ""} stored with it cannot be shown without ${hidden.length > 1 ? "their" : "its"} stage: train ${hidden.length > 1 ? "them" : "it"} again to use ${hidden.length > 1 ? "them" : "it"} in RL.`
    : "";
  return {
    view: { ...view, repaired: true },
    line:
      `The Pipeline view saved in this browser could not be read whole${hidden.length ? "" : " (its models are back)"}: ` +
      `${issues.slice(0, NOTICE_ISSUES).map(issueText).join("; ")}${more}.${models}`,
  };
}
