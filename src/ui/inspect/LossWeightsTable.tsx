/**
 * How GRPO weighs one group's tokens in the batch loss under each `loss_type` (spec "GRPO", aggregation; TRL
 * `loss_type`; Liu et al. 2025, "Understanding R1-Zero-Like Training" for Dr. GRPO): per completion its length
 * |o_i|, the advantage A_i it trains on, and the weight w_i of each of its tokens (grpo: 1/(B·|o_i|), dapo: 1/n,
 * dr_grpo: 1/(B·L)); a token's gradient is ∝ w_i·A_i. Makes the length bias of `grpo` visible on a real batch.
 */
import type { GroupsInspect, InspectGroup } from "../../lab/inspect/types";
import { sig } from "../lab/numbers";
import { Head, Num } from "./cells";

const LOSS_TYPES = ["grpo", "dapo", "dr_grpo"] as const;

export function LossWeightsTable({
  view,
  loss,
  group: g,
}: {
  view: GroupsInspect;
  /** view.loss, known to be there. */
  loss: NonNullable<GroupsInspect["loss"]>;
  group: InspectGroup;
}) {
  const { lossType, B, n, L, maxNewTokens } = loss;
  const scale = view.scaleRewards ?? "group";
  const head = {
    grpo: {
      sub: "1/(B·|oᵢ|)",
      title: "loss_type = grpo: each completion's tokens share 1/B, whatever its length",
    },
    dapo: { sub: "1/n", title: "loss_type = dapo: every token of the batch counts the same, 1/n" },
    dr_grpo: {
      sub: "1/(B·L)",
      title:
        "loss_type = dr_grpo: every token counts the same, 1/(B·L) with L = max_completion_length, the run's length limit (not the longest completion)",
    },
  };
  return (
    <>
      <div className="table-scroll">
        <table className="results inspect-table" data-testid="loss-weights-table">
          <caption className="visually-hidden">Each token's weight in the loss</caption>
          <thead>
            <tr>
              <Head symbol="i" title="Completion of this prompt" />
              <Head symbol="completion" num={false} title="The sampled completion" />
              <Head
                symbol="|oᵢ|"
                sub="tokens"
                title="The completion's tokens in the loss (its EOS included)"
              />
              <Head
                symbol="Aᵢ"
                sub={`scale ${scale}`}
                title="The advantage this run trains the completion's tokens on"
              />
              {LOSS_TYPES.map((t) => (
                <Head
                  key={t}
                  symbol={
                    <>
                      wᵢ {t}
                      {lossType === t && <span className="inspect-own">this run</span>}
                    </>
                  }
                  sub={head[t].sub}
                  title={head[t].title}
                  className={lossType === t ? "is-own" : undefined}
                />
              ))}
              <Head
                symbol="wᵢ·Aᵢ"
                sub="this run"
                title="How hard each of the completion's tokens is pushed (up if > 0, down if < 0), before the ratio and the clip"
              />
            </tr>
          </thead>
          <tbody>
            {g.rows.map((r, i) => {
              const a = r.byScale?.[scale] ?? null;
              const w = r.byLoss?.[lossType] ?? null;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are replaced wholesale each step
                <tr key={i} data-testid="loss-row">
                  <td className="num muted">{i + 1}</td>
                  <td className="mono inspect-completion">{r.completion}</td>
                  <Num col="length" value={r.length} whole />
                  <Num col="advantage" value={a} />
                  {LOSS_TYPES.map((t) => (
                    <Num
                      key={t}
                      col={`w-${t}`}
                      value={r.byLoss?.[t] ?? null}
                      className={lossType === t ? "is-own" : undefined}
                    />
                  ))}
                  <Num col="push" value={a === null || w === null ? null : a * w} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="inspect-note muted" data-testid="loss-note">
        A token's gradient is ∝ wᵢ·Aᵢ. grpo: each completion's weights add up to 1/B (B ={" "}
        <span data-testid="loss-b">{B}</span> completions), so each token of a long completion counts less: a
        long wrong answer is pushed down less per token than a short one, which lets lengths drift (the length
        bias). dapo: 1/n with n = <span data-testid="loss-n">{n}</span> tokens in the batch; dr_grpo: 1/(B·L)
        with L = <span data-testid="loss-l">{L}</span>, max_completion_length: the run's length limit
        {maxNewTokens !== undefined && maxNewTokens > L
          ? ` (max tokens ${maxNewTokens}, cut to the room the model's context leaves after the prompt)`
          : ""}
        , not the longest completion ({sig(1 / (B * L), 3)} a token). In both every token counts the same, so
        a completion weighs in proportion to its length (no length bias).
      </p>
    </>
  );
}
