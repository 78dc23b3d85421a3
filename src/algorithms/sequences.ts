/**
 * Prompt + completion layout shared by the rollout and the trainers. Each row is [left-padded prompt (P) |
 * completion (S slots)], T = P + S. Completion token j of row b sits at column P + j and is predicted from
 * column P + j − 1, so every per-token quantity of the completion (log-probs, KL, advantages, …) lives at the
 * PREDICTING column: slot j of a per-completion array [B, S] ↔ column P − 1 + j of a full array [B, T].
 * Masks come from true lengths (EOS included), never from token ids.
 */
import type { HostBatch } from "../model/batch";
import { leftPadBatch } from "../model/batch";

export interface SequenceBatch extends HostBatch {
  /** Prompt width (left-padded) and completion slots. */
  P: number;
  S: number;
  /** [B] completion lengths (≤ S, EOS included). */
  lengths: ArrayLike<number>;
  /** [B·T] next-token targets: the completion token predicted at each column, −1 elsewhere. */
  targets: Int32Array;
  /** [B·T] f32: 1 on the predicting columns of real completion tokens, else 0. */
  lossMask: Float32Array;
  /** [B·S] f32: the same mask in completion layout. */
  completionMask: Float32Array;
}

/**
 * Lay out prompts and completions. `completions` is [B·S] (row-major); only the first lengths[b] tokens of row b
 * are real. Slots after a row's end hold `padId` and are masked as keys too.
 * @throws RangeError if a prompt is longer than P or a length exceeds S.
 */
export function layoutSequences(
  prompts: readonly (readonly number[])[],
  completions: ArrayLike<number>,
  lengths: ArrayLike<number>,
  P: number,
  S: number,
  padId: number,
): SequenceBatch {
  const B = prompts.length;
  const T = P + S;
  const prompt = leftPadBatch(prompts, P, padId);
  const tokens = new Int32Array(B * T).fill(padId);
  const positions = new Int32Array(B * T);
  const keyMask = new Float32Array(B * T);
  const targets = new Int32Array(B * T).fill(-1);
  const lossMask = new Float32Array(B * T);
  const completionMask = new Float32Array(B * S);
  for (let b = 0; b < B; b++) {
    const n = lengths[b];
    if (!(n >= 0 && n <= S)) throw new RangeError(`completion ${b} has length ${n}, outside [0, ${S}]`);
    tokens.set(prompt.tokens.subarray(b * P, (b + 1) * P), b * T);
    positions.set(prompt.positions.subarray(b * P, (b + 1) * P), b * T);
    keyMask.set(prompt.keyMask.subarray(b * P, (b + 1) * P), b * T);
    const plen = prompts[b].length;
    for (let j = 0; j < n; j++) {
      const col = b * T + P + j;
      tokens[col] = completions[b * S + j];
      positions[col] = plen + j;
      keyMask[col] = 1;
      targets[col - 1] = completions[b * S + j];
      lossMask[col - 1] = 1;
      completionMask[b * S + j] = 1;
    }
  }
  return { B, T, tokens, positions, keyMask, P, S, lengths, targets, lossMask, completionMask };
}

/** Per-completion values [B·S] from a full per-column array [B·T] (slot j ← column P − 1 + j). */
export function toCompletion(full: ArrayLike<number>, s: SequenceBatch): Float64Array {
  const out = new Float64Array(s.B * s.S);
  for (let b = 0; b < s.B; b++) for (let j = 0; j < s.S; j++) out[b * s.S + j] = full[b * s.T + s.P - 1 + j];
  return out;
}

/** A full per-column array [B·T] from per-completion values [B·S] (zeros elsewhere). */
export function toFull(comp: ArrayLike<number>, s: SequenceBatch): Float32Array {
  const out = new Float32Array(s.B * s.T);
  for (let b = 0; b < s.B; b++) for (let j = 0; j < s.S; j++) out[b * s.T + s.P - 1 + j] = comp[b * s.S + j];
  return out;
}

/** {@link toCompletion} with the masked slots (padding, after EOS) set to 0. */
export function toCompletionMasked(full: ArrayLike<number>, s: SequenceBatch): Float64Array {
  const out = toCompletion(full, s);
  for (let i = 0; i < out.length; i++) if (!s.completionMask[i]) out[i] = 0;
  return out;
}
