/**
 * PPO's token table (spec "PPO for language models", step 4): for one completion, per token y_t its
 * log π_old, log π_θ, ρ_t = π_θ/π_old, advantage Â_t, whether the clip binds (no gradient from the token:
 * Â > 0 and ρ > 1 + ε, or Â < 0 and ρ < 1 − ε) and the per-token KL k_t. For PPO a second set of columns
 * (./GaeTable.tsx) shows how Â_t was made: r_t, V_t, δ_t, A_t.
 */
import type { TokensInspect } from "../../lab/inspect/types";
import { sig } from "../lab/numbers";
import { ColumnToggle, Head, Num } from "./cells";
import { GaeTable } from "./GaeTable";
import { Chooser } from "./Pager";
import { countOf, useChoice } from "./paging";
import { tokenLabel } from "./text";

/** Which columns the table shows: the clipped surrogate's (ratio & clip) or how PPO's Â_t was made (GAE). */
export type TokenColumns = "ratio" | "gae";

export function TokenTable({
  view,
  columns,
  onColumns,
}: {
  view: TokensInspect;
  columns: TokenColumns;
  onColumns: (c: TokenColumns) => void;
}) {
  const [index, setIndex] = useChoice(view.completions.length);
  const c = view.completions[index];
  if (!c) return <p className="muted">This step sampled no completions.</p>;
  // Only PPO clips: REINFORCE makes one update from samples of the policy it updates (ρ = 1, nothing to clip).
  const clips = view.algo === "ppo";
  const eps =
    view.epsLow === view.epsHigh
      ? `ε = ${sig(view.epsLow, 3)}`
      : `ε = ${sig(view.epsLow, 3)}, ε_high = ${sig(view.epsHigh, 3)}`;
  const gae = columns === "gae" && view.gae !== undefined;
  const clipped = c.tokens.filter((t) => t.clipped).length;
  const outside = c.tokens.filter((t) => t.ratio < 1 - view.epsLow || t.ratio > 1 + view.epsHigh).length;
  const klFormula = view.klEstimator === "k1" ? "log π_old − log π_ref" : "(r − 1) − log r, r = π_ref/π_old";
  return (
    <div className="inspect-body" data-testid="inspect-tokens">
      <div className="inspect-toolbar">
        <Chooser
          label="Completion"
          what="completion"
          testId="inspect-completion"
          index={index}
          onChange={setIndex}
          options={view.completions.map(
            (x, i) =>
              // The reward first: a long completion is cut at the menu's width, its score must not be.
              `#${i + 1} · R = ${sig(x.reward, 3)} · ${x.prompt}${x.tokens.map((t) => t.text).join("")}`,
          )}
        />
        {/* Read out when ‹ › or the menu change the table below. */}
        <span className="muted" role="status">
          {index + 1} of {countOf(view.completions.length, view.batch, "completion")}
        </span>
        {clips && (
          <span
            className="inspect-params mono"
            data-testid="inspect-eps"
            data-eps-low={view.epsLow}
            data-eps-high={view.epsHigh}
          >
            {eps}
          </span>
        )}
        {view.gae && (
          <ColumnToggle
            testId="token-columns"
            value={columns}
            onChange={onColumns}
            options={[
              {
                value: "ratio",
                label: "Ratio & clip",
                title:
                  "The clipped surrogate: log-probs, ratio ρₜ, advantage Âₜ, whether the clip binds, per-token KL",
              },
              {
                value: "gae",
                label: "Advantage (GAE)",
                title:
                  "How Âₜ is made: per-token reward rₜ, value Vₜ, TD error δₜ, GAE advantage Aₜ, whitening",
              },
            ]}
          />
        )}
      </div>
      <p className="inspect-text">
        <span className="prompt">{c.prompt}</span>
        {c.tokens.map((t, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: token positions are the identity
          <span key={i} className={t.clipped && !gae ? "inspect-tok is-clipped" : "inspect-tok"}>
            {t.text}
          </span>
        ))}
        {/* With its b beside it, R has the digits that make s − b = Â checkable by hand. */}
        <span className="muted inspect-reward"> R = {sig(c.reward, c.baseline !== undefined ? 4 : 3)}</span>
        {c.baseline !== undefined && (
          <span className="muted inspect-reward" data-testid="greedy-baseline">
            {" "}
            · b = {sig(c.baseline, 4)} (greedy answer's score)
          </span>
        )}
        {clipped > 0 && !gae && (
          <span className="muted inspect-reward" data-testid="clipped-key">
            {" "}
            · <span className="inspect-tok is-clipped">underlined</span>: clipped
          </span>
        )}
      </p>
      {gae && view.gae ? (
        <GaeTable view={view} constants={view.gae} completion={c} />
      ) : (
        <RatioTable
          view={view}
          completion={c}
          clipped={clipped}
          outside={outside}
          klFormula={klFormula}
          eps={clips ? eps : null}
        />
      )}
    </div>
  );
}

/** The clipped surrogate's columns for completion `c`, and the note on clipping. */
function RatioTable({
  view,
  completion: c,
  clipped,
  outside,
  klFormula,
  eps,
}: {
  view: TokensInspect;
  completion: TokensInspect["completions"][number];
  clipped: number;
  outside: number;
  klFormula: string;
  /** The clip's ε in words; null for an algorithm without a clip (REINFORCE): no clipped column. */
  eps: string | null;
}) {
  return (
    <>
      <div className="table-scroll">
        <table className="results inspect-table" data-testid="token-table">
          <caption className="visually-hidden">Per-token numbers of the completion chosen above</caption>
          <thead>
            <tr>
              <Head symbol="t" title="Position in the completion" />
              <Head symbol="yₜ" title="The sampled token" num={false} />
              <Head
                symbol="log π_old"
                sub="nats"
                title="Log-prob of the token under the policy that sampled it (at the sampling temperature τ)"
              />
              <Head
                symbol="log π_θ"
                sub="nats"
                title={`Log-prob under the policy being trained, read before the optimizer step of the update that trained on the token: ${view.ratioFrom}`}
              />
              <Head symbol="ρₜ" sub="π_θ / π_old" title="Probability ratio, exp(log π_θ − log π_old)" />
              <Head symbol="Âₜ" sub="advantage" title="The advantage the update used for this token" />
              {eps !== null && (
                <Head
                  symbol="clipped"
                  sub={eps}
                  num={false}
                  title={`The clip binds: the clipped term is the smaller, so the token gives no policy-gradient (advantage) term (Â > 0 and ρ > 1 + ${view.epsLow === view.epsHigh ? "ε" : "ε_high"}, or Â < 0 and ρ < 1 − ε)`}
                />
              )}
              <Head
                symbol="log π_ref"
                sub="nats"
                title="Log-prob of the token under the reference policy (the start model), at τ: the KL column compares it with log π_old"
              />
              <Head
                symbol={`${view.klEstimator}ₜ`}
                sub={`${view.klEstimator === "k1" ? "old − ref" : "(r−1) − log r"}, nats`}
                title={`Per-token KL estimate ${view.klEstimator} = ${klFormula}${view.klEstimator === "k1" ? " (one token's k1 can be < 0; its expectation, the KL, cannot)" : " (≥ 0 per token)"}`}
              />
            </tr>
          </thead>
          <tbody>
            {c.tokens.map((t, i) => {
              const out = eps !== null && (t.ratio < 1 - view.epsLow || t.ratio > 1 + view.epsHigh);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: token positions are the identity
                <tr key={i} data-testid="token-row" className={t.clipped ? "is-clipped" : undefined}>
                  <td className="num muted">{i + 1}</td>
                  <td>
                    <code className="inspect-token">{tokenLabel(t.text)}</code>
                  </td>
                  <Num col="logp-old" value={t.logpOld} />
                  <Num col="logp" value={t.logp} />
                  <Num col="ratio" value={t.ratio} digits={4} className={out ? "is-outside" : undefined} />
                  <Num col="advantage" value={t.advantage} />
                  {eps !== null && (
                    <td data-col="clipped" data-value={t.clipped ? "yes" : "no"}>
                      {t.clipped ? (
                        <span className="badge badge-warn" title="No gradient from this token">
                          yes · {t.advantage > 0 ? "ρ > 1 + ε, Â > 0" : "ρ < 1 − ε, Â < 0"}
                        </span>
                      ) : (
                        <span className="muted">no</span>
                      )}
                    </td>
                  )}
                  <Num col="logp-ref" value={t.logpRef} />
                  <Num col="kl" value={t.kl} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="inspect-note muted">
        ρ from {view.ratioFrom}.{" "}
        {eps === null ? (
          "REINFORCE has no clip: every token's ρÂ term reaches the gradient."
        ) : (
          <>
            {clipped} of {c.tokens.length} tokens clipped (a clipped token gives no advantage term;{" "}
            {view.gae
              ? "an entropy bonus, if on, still reaches it"
              : "the KL term and an entropy bonus still reach it"}
            )
            {outside > clipped
              ? `; ${outside - clipped} more outside [1 − ε, 1 + ${view.epsLow === view.epsHigh ? "ε" : "ε_high"}] but not clipped: with that sign of Â the min keeps ρÂ`
              : ""}
            . Bold ρ: outside the clip range.
            {view.gae &&
              " The chart's policy/clipfrac_avg is another count: every token outside the range, whatever the sign of Â, averaged over all of the step's updates."}
          </>
        )}
        {view.baseline && (
          <span data-testid="reinforce-baseline">
            {" "}
            Âₜ = s − b on every token:{" "}
            {view.baseline.greedy ? (
              <>
                b = the score of the policy's greedy (argmax) answer to the same prompt (ReMax; beside R
                above; mean <span data-testid="baseline-b">{sig(view.baseline.b, 4)}</span>)
              </>
            ) : (
              <>
                b = <span data-testid="baseline-b">{sig(view.baseline.b, 4)}</span>, the moving average of
                earlier batches' mean score (decay α = {sig(view.baseline.decay, 3)}; 0 at the first step)
              </>
            )}
            , and s ={" "}
            {view.baseline.beta > 0
              ? `R − β·Σₜ k1ₜ (β = ${sig(view.baseline.beta, 3)}, k1ₜ = log π_old − log π_ref)`
              : "R (β = 0)"}
            .
          </span>
        )}
      </p>
    </>
  );
}
