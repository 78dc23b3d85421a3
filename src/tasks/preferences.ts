/**
 * Preference datasets: (prompt, chosen, rejected) pairs labelled by a simulated annotator, stored as JSONL.
 *
 * File format (UTF-8, one JSON object per line, "\n" line ends, no header line, field order as below; the
 * field names follow TRL's preference datasets and UltraFeedback's score_chosen/score_rejected):
 *   task            "sentiment" | "arithmetic"
 *   prompt          the prompt text
 *   chosen          the completion the annotator preferred (text after the prompt up to EOS; a completion of the
 *                   task's generation.maxNewTokens tokens was cut there by the sampler and never ended, so the
 *                   loaders leave EOS off it: {@link encodeCompletion})
 *   rejected        the other completion (never the same text as chosen)
 *   score_chosen    gold score of chosen (in the task's goldRange)
 *   score_rejected  gold score of rejected
 *   flipped         true when the label disagrees with the gold order (then score_chosen < score_rejected)
 *   tie             true when the gold scores were equal and the label was a coin toss
 *   split           "eval" when the prompt is one of the task's held-out eval prompts, else "train"
 * Pairs are made from sampled completions ({@link PromptSamples}, also stored as JSONL: {prompt, completions})
 * so a dataset can be rebuilt with another seed or flip rate ({@link buildPreferencePairs}), or the same pairs
 * relabelled ({@link relabelPreferences}).
 */
import type { Tokenizer } from "../tokenizer/tokenizer";
import type { Rng } from "../util/rng";
import { type Annotator, preferByGold } from "./annotator";
import { type PromptSamples, shuffle, type Task, type TaskId } from "./task";

/**
 * A stored completion's tokens, with EOS when it ended. The sampler that made the file stops at EOS (the text
 * leaves it out) or after `sampledLength` tokens, so a completion of `sampledLength` tokens or more was cut by
 * the length limit and never ended: it gets no EOS (else DPO would teach the chosen answers to stop mid-word,
 * and a reward model would learn cut texts as ended ones, though the lab scores its cut samples without EOS).
 * That is what TRL's DPOTrainer does when its max_completion_length is the sampler's: EOS appended, then cut.
 * @param sampledLength the task's generation.maxNewTokens (tokens, ≥ 1): sentiment 64, arithmetic 6.
 */
export function encodeCompletion(tok: Tokenizer, text: string, sampledLength: number): number[] {
  const ids = tok.encode(text);
  return ids.length < sampledLength ? [...ids, tok.eosId] : ids;
}

export interface PreferenceRecord {
  task: TaskId;
  prompt: string;
  chosen: string;
  rejected: string;
  score_chosen: number;
  score_rejected: number;
  flipped: boolean;
  tie: boolean;
  split: "train" | "eval";
}

/** A line of a preference or samples file that does not follow the format; names the line and the field. */
export class PreferenceFormatError extends Error {
  override name = "PreferenceFormatError";
}

export interface BuildPairsOptions {
  /**
   * Number of pairs wanted. Default: one per prompt that has two distinct completions. Pairs are drawn
   * round-robin over the prompts (in an order shuffled by the rng), a new random pair of distinct texts from
   * each prompt each round, never the same two texts twice; when every such pair is used, fewer are returned.
   */
  pairs?: number;
  /**
   * Drop pairs whose gold scores are equal (e.g. two wrong sums: the label would be a coin toss) and draw
   * another instead. Default false (ties kept, marked `tie: true`).
   */
  skipTies?: boolean;
}

/**
 * Pairs from sampled completions, labelled by `annotator`; deterministic given the rng state.
 * Invariants: chosen ≠ rejected (as text); both are completions of the record's prompt in `samples`; no
 * unordered pair of texts appears twice for one prompt; `flipped` ⇔ score_chosen < score_rejected; `tie` ⇔
 * the scores are equal (never with skipTies); length = min(pairs, available pairs).
 * @throws RangeError if `pairs` is not a non-negative integer.
 */
export function buildPreferencePairs(
  task: Pick<Task, "id" | "prompts">,
  samples: readonly PromptSamples[],
  annotator: Annotator,
  rng: Rng,
  opts: BuildPairsOptions = {},
): PreferenceRecord[] {
  const evalPrompts = new Set(task.prompts.eval);
  // Per prompt: its distinct texts and a lazily consumed shuffled list of index pairs.
  const pools = samples
    .map((s) => ({ prompt: s.prompt, texts: [...new Set(s.completions)] }))
    .filter((p) => p.texts.length >= 2)
    .map((p) => {
      const pairs: [number, number][] = [];
      for (let i = 0; i < p.texts.length; i++)
        for (let j = i + 1; j < p.texts.length; j++) pairs.push([i, j]);
      return { ...p, pairs: shuffle(pairs, rng) };
    });
  const wanted = opts.pairs ?? pools.length;
  if (!Number.isInteger(wanted) || wanted < 0) throw new RangeError(`pairs ${wanted} must be an integer ≥ 0`);
  const order = shuffle(pools, rng);
  const out: PreferenceRecord[] = [];
  while (out.length < wanted && order.some((p) => p.pairs.length > 0)) {
    for (const p of order) {
      if (out.length >= wanted) break;
      const pair = p.pairs.pop();
      if (!pair) continue;
      // Random presentation order, so "a" is not always the earlier sample.
      const [ia, ib] = rng.float() < 0.5 ? pair : [pair[1], pair[0]];
      const a = p.texts[ia];
      const b = p.texts[ib];
      const pref = annotator.prefer(p.prompt, a, b, rng);
      if (pref.tie && opts.skipTies) continue;
      const aWins = pref.winner === "a";
      out.push({
        task: task.id,
        prompt: p.prompt,
        chosen: aWins ? a : b,
        rejected: aWins ? b : a,
        score_chosen: aWins ? pref.goldA : pref.goldB,
        score_rejected: aWins ? pref.goldB : pref.goldA,
        flipped: pref.flipped,
        tie: pref.tie,
        split: evalPrompts.has(p.prompt) ? "eval" : "train",
      });
    }
  }
  return out;
}

/**
 * The same pairs labelled again with another flip rate / rng, from their stored gold scores (no scorer
 * needed): each record's gold order is recovered, then {@link preferByGold} decides anew.
 * @throws RangeError if flipRate is outside [0, 1].
 */
export function relabelPreferences(
  records: readonly PreferenceRecord[],
  flipRate: number,
  rng: Rng,
): PreferenceRecord[] {
  return records.map((r) => {
    const pref = preferByGold(r.score_chosen, r.score_rejected, flipRate, rng);
    const keep = pref.winner === "a";
    return {
      ...r,
      chosen: keep ? r.chosen : r.rejected,
      rejected: keep ? r.rejected : r.chosen,
      score_chosen: keep ? r.score_chosen : r.score_rejected,
      score_rejected: keep ? r.score_rejected : r.score_chosen,
      flipped: pref.flipped,
      tie: pref.tie,
    };
  });
}

/** Records as JSONL text (fields in the documented order, one record per line, trailing newline). */
export function preferencesToJsonl(records: readonly PreferenceRecord[]): string {
  return records
    .map((r) =>
      JSON.stringify({
        task: r.task,
        prompt: r.prompt,
        chosen: r.chosen,
        rejected: r.rejected,
        score_chosen: r.score_chosen,
        score_rejected: r.score_rejected,
        flipped: r.flipped,
        tie: r.tie,
        split: r.split,
      }),
    )
    .map((line) => `${line}\n`)
    .join("");
}

/** Parse JSONL into objects; blank lines are skipped. @throws PreferenceFormatError naming the line. */
function parseJsonl(text: string): { line: number; obj: Record<string, unknown> }[] {
  const out: { line: number; obj: Record<string, unknown> }[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch (e) {
      throw new PreferenceFormatError(`line ${i + 1}: not JSON (${e instanceof Error ? e.message : e})`);
    }
    if (typeof obj !== "object" || obj === null || Array.isArray(obj))
      throw new PreferenceFormatError(`line ${i + 1}: expected a JSON object`);
    out.push({ line: i + 1, obj: obj as Record<string, unknown> });
  });
  return out;
}

function field<T>(
  o: Record<string, unknown>,
  line: number,
  key: string,
  ok: (v: unknown) => boolean,
  what: string,
) {
  if (!ok(o[key])) throw new PreferenceFormatError(`line ${line}: field "${key}" must be ${what}`);
  return o[key] as T;
}

const isString = (v: unknown) => typeof v === "string";
const isBool = (v: unknown) => typeof v === "boolean";
const isFiniteNumber = (v: unknown) => typeof v === "number" && Number.isFinite(v);

/**
 * Parse a preference JSONL file (see the module comment).
 * @throws PreferenceFormatError on a line that is not JSON, a missing or mistyped field, an unknown task or
 *   split, or chosen = rejected.
 */
export function parsePreferencesJsonl(text: string): PreferenceRecord[] {
  return parseJsonl(text).map(({ line, obj }) => {
    const rec: PreferenceRecord = {
      task: field(
        obj,
        line,
        "task",
        (v) => v === "sentiment" || v === "arithmetic",
        '"sentiment" or "arithmetic"',
      ),
      prompt: field(obj, line, "prompt", isString, "a string"),
      chosen: field(obj, line, "chosen", isString, "a string"),
      rejected: field(obj, line, "rejected", isString, "a string"),
      score_chosen: field(obj, line, "score_chosen", isFiniteNumber, "a finite number"),
      score_rejected: field(obj, line, "score_rejected", isFiniteNumber, "a finite number"),
      flipped: field(obj, line, "flipped", isBool, "true or false"),
      tie: field(obj, line, "tie", isBool, "true or false"),
      split: field(obj, line, "split", (v) => v === "train" || v === "eval", '"train" or "eval"'),
    };
    if (rec.chosen === rec.rejected)
      throw new PreferenceFormatError(`line ${line}: chosen and rejected are equal`);
    return rec;
  });
}

/** Samples as JSONL: one {prompt, completions} object per line. */
export function samplesToJsonl(samples: readonly PromptSamples[]): string {
  return samples.map((s) => `${JSON.stringify({ prompt: s.prompt, completions: s.completions })}\n`).join("");
}

/**
 * Parse a samples JSONL file ({prompt: string, completions: string[]} per line).
 * @throws PreferenceFormatError on a malformed line.
 */
export function parseSamplesJsonl(text: string): PromptSamples[] {
  return parseJsonl(text).map(({ line, obj }) => ({
    prompt: field<string>(obj, line, "prompt", isString, "a string"),
    completions: field<string[]>(
      obj,
      line,
      "completions",
      (v) => Array.isArray(v) && v.every(isString),
      "an array of strings",
    ),
  }));
}
