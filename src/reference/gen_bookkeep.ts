/** CPU twin of src/shaders/gen_bookkeep.wgsl (one step s of generation bookkeeping; mutates its state arrays). */
export interface GenState {
  done: Uint32Array;
  lengths: Uint32Array;
  outTokens: Int32Array;
  outLogp: Float32Array;
}

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
