/**
 * The experiment ↔ the URL hash. The settings tables (src/lab/settings.ts for task/model/seed and the chart
 * view, the algorithms' field tables for each run) decide what is written and how it is checked; the payload
 * is JSON compressed with lz-string into URL-safe characters:
 *
 *   #s=<compressToEncodedURIComponent(JSON)>   JSON = { v: 1, d, task, model, seed, runs: [{ id, algo, label?,
 *                                              config?, colour?, seed? }], steps?, preset?, view?, pipeline? }
 *
 * A run's `seed` is its own training seed (RunSpec.seed; absent: the experiment's).
 *
 * `d` is the settings revision (./default_changes.ts): a link of an older one gets its runs' settings as they
 * were then, one without (made before 2026-12-07) a notice where a default changed since may matter.
 *
 * A run carries only the settings that differ from its algorithm's defaults (and its label only when it is
 * not the algorithm's title); the view and the Pipeline's settings (src/lab/pipeline/fields.ts) only the values
 * that differ from the defaults. Reading never throws:
 * a hash that cannot be read at all is a typed {@link UrlError}; a readable one with bad fields keeps every
 * good field, drops the bad ones (rejected, not clamped) and lists them as issues for the lab's notice.
 */
import LZString from "lz-string";
import { quoted } from "../util/quote";
import { migrateRaw, revisionNote, revisionOf, SETTINGS_REVISION } from "./default_changes";
import { defaultExperiment } from "./defaults";
import { PIPELINE_FIELDS, type PipelineSettings } from "./pipeline/fields";
import type { ExperimentSpec, RunSpec } from "./protocol";
import { ALGORITHMS } from "./registry";
import { withoutForkPoints } from "./run_labels";
import { DEFAULT_SHARED_VIEW, type SharedView } from "./settings";
import {
  checkNonDefault,
  checkSpec,
  checkView,
  isRecord,
  issueText,
  nonDefaultConfig,
  runAsWritten,
} from "./spec_check";

// lz-string is CommonJS: a default import works in Vite and in Node (the CLI imports the lessons' links).
const { compressToEncodedURIComponent, decompressFromEncodedURIComponent } = LZString;

/** The payload format version; a link with another version is refused (and defaults load). */
export const URL_VERSION = 1;
/** The hash parameter holding the payload: `#s=…`. */
export const HASH_KEY = "s";
/** Longest hash read (characters); a 12-run experiment with many changed settings needs < 1,500. */
export const MAX_HASH = 8192;
/** Longest decompressed payload read (characters). */
export const MAX_PAYLOAD = 65536;

export type UrlErrorKind = "format" | "too-long" | "corrupt" | "version";

/** Why a hash could not be read at all. */
export class UrlError extends Error {
  override readonly name = "UrlError";
  constructor(
    readonly kind: UrlErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export type DecodeResult =
  | {
      ok: true;
      spec: ExperimentSpec;
      view: SharedView;
      /** The Pipeline's settings that differ from their defaults. */
      pipeline: Partial<PipelineSettings>;
      issues: string[];
      /** Present when the link's characters are not exactly what the lab wrote: the notice's sentence. */
      altered?: string;
      /** Present when the link's run list is empty (its maker removed every run): the notice's sentence. */
      empty?: string;
      /** Present when a default changed since the link was made may change its runs: the notice's sentence. */
      defaults?: string;
    }
  | { ok: false; error: UrlError };

/** The hash (without "#") for an experiment, its view and its Pipeline's settings: `s=…`. */
export function encode(
  spec: ExperimentSpec,
  view: SharedView = DEFAULT_SHARED_VIEW,
  pipeline: Partial<PipelineSettings> = {},
): string {
  const viewDiff: Partial<SharedView> = {};
  for (const k of Object.keys(DEFAULT_SHARED_VIEW) as (keyof SharedView)[])
    if (view[k] !== DEFAULT_SHARED_VIEW[k]) Object.assign(viewDiff, { [k]: view[k] });
  const pipelineDiff: Record<string, string | number> = {};
  for (const f of PIPELINE_FIELDS) {
    const v = pipeline[f.key];
    if (v !== undefined && v !== f.default) pipelineDiff[f.key] = v;
  }
  const payload = {
    v: URL_VERSION,
    d: SETTINGS_REVISION,
    task: spec.task,
    model: spec.model,
    seed: spec.seed,
    runs: spec.runs.map((r) => {
      const config = nonDefaultConfig(r.algo, r.config);
      return {
        id: r.id,
        algo: r.algo,
        ...(r.label !== ALGORITHMS[r.algo].title && { label: r.label }),
        ...(Object.keys(config).length > 0 && { config }),
        ...(r.colour !== undefined && { colour: r.colour }),
        ...(r.seed !== undefined && { seed: r.seed }),
      };
    }),
    ...(spec.steps && { steps: spec.steps }),
    ...(spec.preset && { preset: spec.preset }),
    ...(Object.keys(viewDiff).length > 0 && { view: viewDiff }),
    ...(Object.keys(pipelineDiff).length > 0 && { pipeline: pipelineDiff }),
  };
  return `${HASH_KEY}=${compressToEncodedURIComponent(JSON.stringify(payload))}`;
}

/** The payload of a hash: its text, and what its characters hold besides (see {@link alteredNote}). */
interface Payload {
  text: string;
  /** Characters after the compressed experiment (the decoder stops at its end marker and ignores them). */
  tail: string;
  /** The characters are not what compressing the text gives: changed somewhere after the link was made. */
  altered: boolean;
}

/** The payload of a hash ("#s=…", "s=…"), or a UrlError. */
function payloadOf(hash: string): Payload | UrlError {
  if (hash.length > MAX_HASH)
    return new UrlError(
      "too-long",
      `the link is ${hash.length} characters long (at most ${MAX_HASH} are read)`,
    );
  const h = hash.startsWith("#") ? hash.slice(1) : hash;
  const param = h.split("&").find((p) => p.startsWith(`${HASH_KEY}=`));
  if (param === undefined) return new UrlError("format", `the link has no "#${HASH_KEY}=" experiment`);
  let text: string | null;
  let body = param.slice(HASH_KEY.length + 1);
  // A link that went through a URL encoder ("$" → "%24") still opens; a stray "%" (in characters pasted after
  // the experiment, say) leaves it as it is.
  if (body.includes("%")) {
    try {
      body = decodeURIComponent(body);
    } catch {}
  }
  // A form decoder turns "+" into a space (the decompressor reads a space as "+" too).
  body = body.replace(/ /g, "+");
  try {
    text = decompressFromEncodedURIComponent(body);
  } catch {
    text = null;
  }
  if (!text) return new UrlError("corrupt", "the link's experiment is truncated or corrupt");
  if (text.length > MAX_PAYLOAD)
    return new UrlError("too-long", `the link's experiment is too large (${text.length} characters)`);
  // Compression is deterministic: a link as the lab wrote it is exactly the compressed text.
  const exact = compressToEncodedURIComponent(text);
  if (body === exact) return { text, tail: "", altered: false };
  if (body.startsWith(exact)) return { text, tail: body.slice(exact.length), altered: false };
  return { text, tail: "", altered: true };
}

/** Longest stretch of ignored characters a notice quotes. */
const TAIL_SHOWN = 24;

/** The notice's sentence on a payload that is not exactly what the lab wrote, or null. */
function alteredNote(p: Payload): string | null {
  if (p.tail) {
    const quoted = p.tail.length > TAIL_SHOWN ? `${p.tail.slice(0, TAIL_SHOWN)}…` : p.tail;
    return `This link has ${p.tail.length} character${p.tail.length > 1 ? "s" : ""} after its experiment (“${quoted}”), which ${p.tail.length > 1 ? "were" : "was"} ignored.`;
  }
  return p.altered
    ? "This link was changed after it was made, but it still reads as an experiment: it opened as read, so check its settings."
    : null;
}

/** Read a hash ("#s=…" or "s=…"). Never throws: an unreadable hash is `{ ok: false, error }`. */
export function decode(hash: string): DecodeResult {
  const payload = payloadOf(hash);
  if (payload instanceof UrlError) return { ok: false, error: payload };
  let raw: unknown;
  try {
    raw = JSON.parse(payload.text);
  } catch {
    return { ok: false, error: new UrlError("corrupt", "the link's experiment is truncated or corrupt") };
  }
  if (!isRecord(raw))
    return { ok: false, error: new UrlError("corrupt", "the link's experiment is not an object") };
  if (raw.v !== URL_VERSION)
    return {
      ok: false,
      error: new UrlError("version", `the link was made by another version (format ${quoted(raw.v)})`),
    };
  const issues: string[] = [];
  // A link carries settings, not weights: a fork named in it starts over, so no fork point (RunSpec.forkOf).
  // Its runs under today's defaults, before the check drops the values at today's defaults: an explicit value
  // of a default's old meaning (ε_high = 0 before 3 Dec 2026) is then still there to say (default_changes.ts).
  const revision = revisionOf(raw.d);
  const asWritten = Array.isArray(raw.runs) ? raw.runs.map(runAsWritten) : [];
  const runs = Array.isArray(raw.runs)
    ? raw.runs.map((r, i) => migrateRaw(r, asWritten[i], revision))
    : raw.runs;
  const spec = withoutForkPoints(checkSpec({ ...raw, runs }, issues));
  const view = checkView(raw.view, issues);
  const pipeline = checkPipeline(raw.pipeline, issues);
  const altered = alteredNote(payload);
  const empty = spec.runs.length === 0 ? EMPTY_NOTE : null;
  const defaults = revisionNote(
    asWritten.filter((r): r is RunSpec => r !== null),
    revision,
    "This link",
  );
  return {
    ok: true,
    spec,
    view,
    pipeline,
    issues,
    ...(altered && { altered }),
    ...(empty && { empty }),
    ...(defaults && { defaults }),
  };
}

/** The Pipeline's settings in a link: the valid values that differ from the defaults (bad ones: an issue). */
function checkPipeline(raw: unknown, issues: string[]): Partial<PipelineSettings> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) {
    issues.push("the Pipeline's settings are not readable; defaults");
    return {};
  }
  return checkNonDefault("Pipeline", PIPELINE_FIELDS, raw, issues) as Partial<PipelineSettings>;
}

/** The notice's sentence on a link with no runs (a valid experiment: every run was removed before sharing). */
export const EMPTY_NOTE =
  "This link's experiment has no runs (they were all removed before it was shared): add one with “+ Add run…”, or pick one of the “Lessons…”.";

/** How many issues a notice lists before "and N more" (a hand-edited link rarely has more). */
export const NOTICE_ISSUES = 8;

/** A one-paragraph notice for the lab from decode's issues or error. */
export function noticeOf(result: DecodeResult): string | null {
  if (!result.ok)
    return `This link could not be opened: ${result.error.message}. The default experiment was loaded.`;
  const lead = [result.altered, result.empty, result.defaults].filter((x) => x !== undefined).join(" ");
  const altered = lead === "" ? null : lead;
  if (result.issues.length === 0) return altered;
  // "and 1 more" would take the room of the one it hides: then all are named.
  const listed = result.issues.length > NOTICE_ISSUES + 1 ? NOTICE_ISSUES : result.issues.length;
  const shown = result.issues.slice(0, listed).map(issueText).join("; ");
  const more = result.issues.length - listed;
  const reset = `Some settings in this link were not valid and were reset to their defaults: ${shown}${more > 0 ? `; and ${more} more` : ""}.`;
  return altered ? `${altered} ${reset}` : reset;
}

export interface OpenedSpec {
  spec: ExperimentSpec;
  view: SharedView;
  /** The Pipeline's settings that differ from their defaults ({} without a link). */
  pipeline: Partial<PipelineSettings>;
  /** For the lab's notice bar: why (part of) the link was not used; null when all was fine. */
  notice: string | null;
  /** "url": the spec came from the link (in part at least); "default": no usable link. */
  source: "url" | "default";
}

/**
 * The experiment to open from a hash: the link's (bad fields reset, with a notice), or the defaults when
 * there is no link (no notice) or it cannot be read (with a notice). Never throws.
 */
export function specFromHash(hash: string, defaults: () => ExperimentSpec = defaultExperiment): OpenedSpec {
  if (hash === "" || hash === "#")
    return {
      spec: defaults(),
      view: { ...DEFAULT_SHARED_VIEW },
      pipeline: {},
      notice: null,
      source: "default",
    };
  const result = decode(hash);
  if (!result.ok)
    return {
      spec: defaults(),
      view: { ...DEFAULT_SHARED_VIEW },
      pipeline: {},
      notice: noticeOf(result),
      source: "default",
    };
  return {
    spec: result.spec,
    view: result.view,
    pipeline: result.pipeline,
    notice: noticeOf(result),
    source: "url",
  };
}

/**
 * {@link specFromHash} of the page's own location (defaults when there is no `location`). A link whose
 * experiment sits in the query (`?s=…`, where some apps move a fragment) opens the defaults with a notice
 * saying how to open it.
 */
export function specFromLocation(
  loc: (Pick<Location, "hash"> & Partial<Pick<Location, "search">>) | undefined = globalThis.location,
  defaults: () => ExperimentSpec = defaultExperiment,
): OpenedSpec {
  const hash = loc?.hash ?? "";
  if ((hash === "" || hash === "#") && /(^\?|&)s=/.test(loc?.search ?? ""))
    return {
      spec: defaults(),
      view: { ...DEFAULT_SHARED_VIEW },
      pipeline: {},
      notice:
        "This link carries its experiment after “?s=”, where the lab reads it after “#s=”: the default " +
        "experiment opened instead. Replace that “?” with “#” in the address bar to open the link's.",
      source: "default",
    };
  return specFromHash(hash, defaults);
}

/** The full share link: `base` (page URL without its hash) + "#" + the encoded experiment. */
export function shareUrl(
  spec: ExperimentSpec,
  view: SharedView,
  base: string,
  pipeline: Partial<PipelineSettings> = {},
): string {
  const i = base.indexOf("#");
  return `${i < 0 ? base : base.slice(0, i)}#${encode(spec, view, pipeline)}`;
}
