/**
 * A sampled token's numbers (log-prob, probability, advantage, ratio, per-token KL k1 and k3, entropy): the card
 * the Samples panel shows beside a hovered or cursor token, and the words a screen reader hears for it.
 */
import type { TokenView } from "../../lab/protocol";
import { tokenRows } from "./token_rows";

export function TokenCard({ token }: { token: TokenView }) {
  const rows = tokenRows(token);
  return (
    <div className="token-card" data-testid="token-card">
      <p className="token-card-text">
        <code>{JSON.stringify(token.text)}</code>
      </p>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
