/** CPU twin of src/shaders/gen_bookkeep.wgsl (one step s of generation bookkeeping; mutates its state arrays). */
export interface GenState {
  /** [B]: 1 once the row emitted EOS, else 0. */
  done: Uint32Array;
  /** [B]: generated tokens so far, EOS included (the true completion length, in [0, S]). */
  lengths: Uint32Array;
  /** [B, S] flat, row-major: generated token ids, PAD after EOS. */
  outTokens: Int32Array;
  /** [B, S] flat, row-major: their log-probs (nats, ≤ 0), 0 after EOS. */
  outLogp: Float32Array;
}

/**
 * Record step s (0-based, in [0, S)) for the sampled `token` [B] and its `logp` [B]: a row not yet done takes
 * them at column s, sets lengths[b] = s + 1 and is done once the token equals `eos`; a done row gets `pad` and 0.
 * B is `st.done.length`; S the slots per row. Nothing is checked (the GPU kernel's wrapper checks shapes).
 */
export function genBookkeepRef(
  st: GenState,
  token: ArrayLike<number>,
  logp: ArrayLike<number>,
  S: number,
  s: number,
  eos: number,
  pad: number,
): void {
  for (let b = 0; b < st.done.length; b++) {
    const o = b * S + s;
    if (st.done[b]) {
      st.outTokens[o] = pad;
      st.outLogp[o] = 0;
      continue;
    }
    st.outTokens[o] = token[b];
    st.outLogp[o] = logp[b];
    st.lengths[b] = s + 1;
    if (token[b] === eos) st.done[b] = 1;
  }
}
