/**
 * Host-side batch preparation: token ids, position ids and the key mask for B sequences of T slots, from
 * sequences of different lengths. Prompts are LEFT-padded so generation appends at the same column for every
 * row; position ids count real tokens only, so a padded row sees the same positions as an unpadded one.
 */

export interface HostBatch {
  B: number;
  T: number;
  /** [B·T] token ids (padding slots hold `padId`). */
  tokens: Int32Array;
  /** [B·T] position ids: 0 at a row's first real token; 0 on padding. */
  positions: Int32Array;
  /** [B·T] 1 = real token, 0 = padding. */
  keyMask: Float32Array;
}

/**
 * Lay sequences out in B rows of T slots, left-padded.
 * @throws RangeError if a sequence is longer than T.
 */
export function leftPadBatch(seqs: readonly (readonly number[])[], T: number, padId: number): HostBatch {
  const B = seqs.length;
  const tokens = new Int32Array(B * T).fill(padId);
  const positions = new Int32Array(B * T);
  const keyMask = new Float32Array(B * T);
  seqs.forEach((s, b) => {
    if (s.length > T) throw new RangeError(`sequence ${b} has ${s.length} tokens, more than T = ${T}`);
    const start = T - s.length;
    for (let i = 0; i < s.length; i++) {
      tokens[b * T + start + i] = s[i];
      positions[b * T + start + i] = i;
      keyMask[b * T + start + i] = 1;
    }
  });
  return { B, T, tokens, positions, keyMask };
}
