/**
 * DPO's pairs (spec "DPO family"): per pair the prompt, the chosen y_w and rejected y_l completions, their
 * sequence log-probs under the policy and the reference, the implicit rewards r = β·(log π_θ − log π_ref),
 * the margin r_w − r_l, σ(margin) (the implicit Bradley–Terry P(y_w ≻ y_l)) and the pair's loss.
 */
import { useState } from "react";
import type { PairSide, PairsInspect } from "../../lab/inspect/types";
import { sig } from "../lab/numbers";
import { Head, Num } from "./cells";
import { Pager } from "./Pager";
import { countOf, pageRange } from "./paging";

/** The reward and the loss of each loss type, in the papers' symbols. */
function formulas(v: PairsInspect): { reward: string; loss: string; note: string } {
  const b = `β = ${sig(v.beta, 3)}`;
  switch (v.lossType) {
    case "sigmoid":
      return {
        reward: "β·log(π_θ/π_ref)",
        loss: v.labelSmoothing > 0 ? `−(1 − ε)·log σ(m) − ε·log σ(−m)` : "−log σ(margin)",
        note: `DPO (sigmoid), ${b}${v.labelSmoothing > 0 ? `, cDPO label smoothing ε = ${sig(v.labelSmoothing, 3)}` : ""}.`,
      };
    case "hinge":
      return {
        reward: "β·log(π_θ/π_ref)",
        loss: "max(0, 1 − margin)",
        // As the loss-type knob and the explain panel say: SLiC-HF's hinge has no reference; this form is RSO's.
        note: `Hinge (SLiC's, on the reference log-ratio as in RSO and TRL), ${b}.`,
      };
    case "ipo":
      return {
        reward: "β·log(π_θ/π_ref)/|y|",
        loss: "(margin/β − 1/(2β))²",
        note: `IPO, ${b}: log-probs averaged per token, as TRL.`,
      };
    case "simpo":
      return {
        reward: "β·log π_θ / |y|",
        loss: "−log σ(margin − γ)",
        note: `SimPO, ${b}, γ = ${sig(v.simpoGamma, 3)}: reference-free, length-normalised.`,
      };
    default:
      throw new RangeError(`unknown DPO loss type ${String(v.lossType)}`);
  }
}

/** Significant digits that show `x` to two decimals (at least 3). */
const twoDecimals = (x: number | null) =>
  x === null ? 3 : Math.max(3, Math.floor(Math.log10(Math.max(1, Math.abs(x)))) + 3);

function Side({ side, which }: { side: PairSide; which: "chosen" | "rejected" }) {
  return (
    <>
      <td
        className={`inspect-role is-${which}`}
        title={which === "chosen" ? "chosen (preferred), y_w" : "rejected, y_l"}
      >
        {which === "chosen" ? "y_w" : "y_l"} <span className="inspect-role-word">{which}</span>
      </td>
      <td className="mono inspect-completion">{side.text}</td>
      <Num col={`${which}-length`} value={side.length} whole />
      {/* Two decimals at least, so r = β·(log π_θ − log π_ref) can be checked from the two columns. */}
      <Num col={`${which}-logp`} value={side.logp} digits={twoDecimals(side.logp)} />
      <Num col={`${which}-logp-ref`} value={side.logpRef} digits={twoDecimals(side.logpRef)} />
      <Num col={`${which}-reward`} value={side.reward} />
    </>
  );
}

/** Pairs on one page of the table. */
export const PAIR_PAGE = 8;

export function PairTable({ view, initialPage = 0 }: { view: PairsInspect; initialPage?: number }) {
  const f = formulas(view);
  const [page, setPage] = useState(initialPage);
  const r = pageRange(page, view.pairs.length, PAIR_PAGE);
  const shown = view.pairs.slice(r.first, r.end);
  return (
    <div className="inspect-body" data-testid="inspect-pairs">
      <div className="inspect-toolbar">
        <span className="inspect-params">{f.note}</span>
        <span className="inspect-params mono" data-testid="pair-formulas">
          r = {f.reward} · loss = {f.loss}
        </span>
        {r.pages > 1 ? (
          <Pager index={r.page} count={r.pages} what="pairs" onChange={setPage} testId="inspect-pair-pager">
            <span className="muted" data-testid="inspect-pair-range">
              {r.first + 1}–{r.end} of {countOf(view.pairs.length, view.totalPairs, "pair")}
            </span>
          </Pager>
        ) : (
          <span className="muted">{countOf(view.pairs.length, view.totalPairs, "pair")}</span>
        )}
      </div>
      <div className="table-scroll">
        <table className="results inspect-table" data-testid="pair-table">
          <caption className="visually-hidden">Preference pairs and their implicit rewards</caption>
          <thead>
            <tr>
              <Head
                symbol="prompt x"
                num={false}
                title="Pair number and the prompt both completions answer"
              />
              <Head symbol="y" num={false} title="Chosen (preferred) y_w or rejected y_l" />
              <Head
                symbol="completion"
                num={false}
                title="The completion (as trained on, up to the length limit)"
              />
              <Head symbol="|y|" sub="tokens" title="Completion tokens" />
              <Head
                symbol="log π_θ"
                sub="(y|x), nats"
                title="log π_θ(y|x): the sum of the completion's token log-probs under the policy, before this step's update"
              />
              <Head
                symbol="log π_ref"
                sub="(y|x), nats"
                title="log π_ref(y|x): the same under the frozen reference model"
              />
              <Head
                symbol="r"
                sub="implicit reward"
                title="Implicit reward (TRL rewards/chosen, rewards/rejected)"
              />
              <Head symbol="margin" sub="r_w − r_l" title="TRL rewards/margins" className="is-own" />
              <Head
                symbol="σ(margin)"
                sub="P(y_w ≻ y_l)"
                title="The implicit Bradley–Terry probability that the chosen completion wins"
              />
              <Head symbol="loss" sub="this pair" title="This pair's loss under the run's loss type" />
            </tr>
          </thead>
          {shown.map((p, k) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: pairs are replaced wholesale each step
            <tbody key={k} data-testid="pair" data-pair={r.first + k} className="inspect-pair">
              <tr>
                <td className="inspect-prompt" rowSpan={2}>
                  <span className="muted">{r.first + k + 1}.</span> <span className="mono">{p.prompt}</span>
                  {p.flipped && (
                    <span
                      className="inspect-flipped"
                      data-testid="pair-flipped"
                      title="The simulated annotator flipped this label: the gold scorer prefers the rejected completion y_l (the run's flip rate)."
                    >
                      label flipped
                    </span>
                  )}
                </td>
                <Side side={p.chosen} which="chosen" />
                <Num col="margin" value={p.margin} rowSpan={2} className="is-own" />
                <Num col="prob" value={p.prob} rowSpan={2} />
                <Num col="loss" value={p.loss} rowSpan={2} />
              </tr>
              <tr>
                <Side side={p.rejected} which="rejected" />
              </tr>
            </tbody>
          ))}
        </table>
      </div>
      <p className="inspect-note muted">
        log π(y|x) sums the completion's token log-probs at the sampling temperature τ; the loss pushes the
        margin up. A negative margin means the policy, relative to the reference, still prefers the rejected
        completion. A pair marked "label flipped" is one the simulated annotator got wrong (the run's flip
        rate): DPO learns it as labelled. The completions are a model's samples: a few hold a special token it
        sampled (<code>&lt;unk&gt;</code>, <code>&lt;bos&gt;</code>), which is its output, not a fault in the
        data.
      </p>
    </div>
  );
}
