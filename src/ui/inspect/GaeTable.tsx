/**
 * PPO's advantages taken apart, for one completion of the token table (spec "PPO for language models", steps
 * 2–3; Schulman et al. 2016, eq. 16): per token y_t the KL estimate k_t, the per-token reward r_t = −β·k_t (+ R
 * on the last token), the value V_t at rollout, the TD error δ_t = r_t + γ·V_{t+1} − V_t, the GAE advantage
 * A_t = δ_t + γλ·A_{t+1}, the whitened Â_t the update used and the value target G_t = A_t + V_t. Every number can be checked by hand from the row
 * below it and the constants in the note.
 */
import type { TokenCompletion, TokensInspect } from "../../lab/inspect/types";
import { sig } from "../lab/numbers";
import { Head, Num } from "./cells";
import { tokenLabel } from "./text";

export function GaeTable({
  view,
  constants,
  completion: c,
}: {
  view: TokensInspect;
  /** view.gae, known to be there. */
  constants: NonNullable<TokensInspect["gae"]>;
  completion: TokenCompletion;
}) {
  const { beta, gamma, lam, whiten, tokens } = constants;
  const k = `${view.klEstimator}ₜ`;
  const last = c.tokens.length - 1;
  return (
    <>
      <div className="table-scroll">
        <table className="results inspect-table" data-testid="gae-table">
          <caption className="visually-hidden">How each token's advantage is made (GAE)</caption>
          <thead>
            <tr>
              <Head symbol="t" title="Position in the completion" />
              <Head symbol="yₜ" title="The sampled token" num={false} />
              <Head
                symbol={k}
                sub="nats"
                title={`Per-token KL estimate ${view.klEstimator} of the sampling policy against the reference${view.klEstimator === "k1" ? " (one token's k1 can be < 0, and its reward rₜ then > 0)" : ""}`}
              />
              <Head
                symbol="rₜ"
                sub="−β·kₜ (+ R)"
                title="Per-token reward: the KL penalty −β·kₜ on every token, plus the completion's reward R on its last token"
              />
              <Head
                symbol="Vₜ"
                sub="value"
                title="The value model's estimate of the return from this token on, when the batch was sampled"
              />
              <Head
                symbol="δₜ"
                sub="rₜ + γVₜ₊₁ − Vₜ"
                title="TD error: the reward plus the next token's value (V = 0 after the last token), minus this token's value"
              />
              <Head
                symbol="Aₜ"
                sub="δₜ + γλAₜ₊₁"
                title="GAE advantage, summed from the last token back, before whitening"
              />
              <Head
                symbol="Âₜ"
                sub={whiten ? "(Aₜ − μ)/σ" : "= Aₜ"}
                title={
                  whiten
                    ? "The advantage the update used: Aₜ whitened over every completion token of the batch"
                    : "The advantage the update used (whitening is off: Âₜ = Aₜ)"
                }
              />
              <Head
                symbol="Gₜ"
                sub="Aₜ + Vₜ"
                title="The return: the target the value loss pulls Vₜ towards (before whitening, so in reward units)"
              />
            </tr>
          </thead>
          <tbody>
            {c.tokens.map((t, i) =>
              t.gae ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: token positions are the identity
                <tr key={i} data-testid="gae-row" className={i === last ? "is-own" : undefined}>
                  <td className="num muted">{i + 1}</td>
                  <td>
                    <code className="inspect-token">{tokenLabel(t.text)}</code>
                  </td>
                  <Num col="kl" value={t.kl} />
                  <Num col="r" value={t.gae.reward} />
                  <Num col="v" value={t.gae.value} />
                  <Num col="delta" value={t.gae.delta} />
                  <Num col="gae" value={t.gae.adv} />
                  <Num col="advantage" value={t.advantage} />
                  <Num col="return" value={t.gae.ret} />
                </tr>
              ) : null,
            )}
          </tbody>
        </table>
      </div>
      <p className="inspect-note muted" data-testid="gae-note">
        rₜ = −β·kₜ with β = <span data-testid="gae-beta">{sig(beta, 6)}</span>; the last token (shaded) also
        gets R = <span data-testid="gae-reward">{sig(c.reward, 3)}</span>. From the last token back: δₜ = rₜ +
        γ·Vₜ₊₁ − Vₜ (no V after the last token), Aₜ = δₜ + γλ·Aₜ₊₁, with γ ={" "}
        <span data-testid="gae-gamma">{sig(gamma, 3)}</span>, λ ={" "}
        <span data-testid="gae-lam">{sig(lam, 3)}</span>.{" "}
        {whiten ? (
          <>
            Âₜ = (Aₜ − μ)/σ over the batch's {tokens} completion tokens (σ = √(s² + 10⁻⁸), s their sample std,
            n − 1): μ = <span data-testid="gae-mean">{sig(whiten.mean, 4)}</span>, σ ={" "}
            <span data-testid="gae-scale">{sig(whiten.scale, 4)}</span>.
          </>
        ) : (
          "Whitening is off: Âₜ = Aₜ."
        )}{" "}
        The value loss pulls Vₜ towards Gₜ.
      </p>
    </>
  );
}
